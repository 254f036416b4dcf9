import { freePort } from './ports';

// The kernel offers a just-closed port again often (hundreds of repeats in 3,000 probes one after the other here):
// ports asked for one after the other, as a server's three are, must still all differ.
test('ports handed out one after the other, or at once, are all different', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 300; i++) ports.push(await freePort());
  ports.push(...(await Promise.all(Array.from({ length: 100 }, () => freePort()))));
  expect(new Set(ports).size).toBe(ports.length);
});
