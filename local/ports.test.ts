import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ephemeralRangeStart, freePort } from './ports';

// The kernel offers a just-closed port again often (hundreds of repeats in 3,000 probes one after the other here):
// ports asked for one after the other, as a server's three are, must still all differ.
test('ports handed out one after the other, or at once, are all different', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 300; i++) ports.push(await freePort());
  ports.push(...(await Promise.all(Array.from({ length: 100 }, () => freePort()))));
  expect(new Set(ports).size).toBe(ports.length);
});

// Below the ephemeral range the kernel gives no port to another process's listen(0) or outgoing connection.
test('ports come from below the kernel’s ephemeral range', async () => {
  const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
  for (const port of ports) expect(port).toBeLessThan(ephemeralRangeStart());
});

/** Ports handed out by a separate Node process, as another test file's worker would. */
function portsOfAnotherProcess(count: number): Promise<number[]> {
  const script = `const { freePort } = require(${JSON.stringify(join(import.meta.dirname, 'ports.ts'))});
    Promise.all(Array.from({ length: ${count} }, () => freePort())).then((ports) => console.log(JSON.stringify(ports)));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as number[]) : reject(new Error(`exit ${code}`))));
  });
}

test('two processes handing out ports at once never hand out the same one', async () => {
  const [mine, theirs] = await Promise.all([Promise.all(Array.from({ length: 1000 }, () => freePort())), portsOfAnotherProcess(1000)]);
  expect(theirs).toHaveLength(1000);
  expect(new Set([...mine, ...theirs]).size).toBe(2000);
});
