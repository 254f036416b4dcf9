// Security audit L13: the local preview URL was /hls/<the full stream key>.m3u8, served to anyone. The origin now
// serves a preview only by its opaque id, and rewrites the playlist so that no segment name carries the key.
// Real nginx-rtmp, fed by a real ffmpeg publishing to a key, as a running stream does.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hlsMount, LocalPreviews } from './hls-mount';
import { startNginxRtmp, type NginxRtmp } from './nginx-rtmp';
import { freePort } from './ports';

const key = 'live_1234_SecretKeyPart';
let nginx: NginxRtmp;
let publisher: ChildProcess;
let origin: Server;
let base: string;
const previews = new LocalPreviews();

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loopcast-hls-'));
  nginx = await startNginxRtmp({ dir, rtmpPort: await freePort(), hlsPort: await freePort(), logFile: join(dir, 'nginx.log') });
  publisher = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=30',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '30',
      '-f',
      'flv',
      `${nginx.rtmpUrl}/${key}`,
    ],
    { stdio: 'ignore' },
  );
  const mount = hlsMount(nginx.hlsUrl, previews);
  origin = createServer((request, response) => void mount.handle(request, response));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
}, 30_000);
afterAll(async () => {
  publisher.kill('SIGKILL');
  origin.close();
  await nginx.stop();
});

async function playlist(path: string): Promise<Response> {
  for (let i = 0; ; i++) {
    const response = await fetch(`${base}${path}`);
    if (response.status !== 404 || i > 60) return response;
    await new Promise((r) => setTimeout(r, 250)); // nginx writes the playlist after its first fragment
  }
}

test('the preview plays by its opaque id, and neither its URL nor its playlist names the key', async () => {
  const id = previews.idFor(key);
  expect(id).toMatch(/^[\w-]{32}$/);
  expect(id).not.toContain('Secret');
  const answer = await playlist(`/hls/${id}.m3u8`);
  expect(answer.status).toBe(200);
  const text = await answer.text();
  expect(text).toContain('#EXTM3U');
  expect(text).not.toContain(key);
  const segment = text.split('\n').find((line) => line.endsWith('.ts'))!;
  expect(segment).toMatch(new RegExp(`^${id}-\\d+\\.ts$`));
  const media = await fetch(`${base}/hls/${segment}`);
  expect(media.status).toBe(200);
  expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(1000);
}, 30_000);

test('by the key itself, or by an id never handed out, there is nothing', async () => {
  for (const path of [`/hls/${encodeURIComponent(key)}.m3u8`, `/hls/${key}-0.ts`, `/hls/${'A'.repeat(32)}.m3u8`]) {
    expect((await fetch(`${base}${path}`)).status).toBe(404);
  }
});

test("nginx's own HLS port lets no other origin read a playlist", async () => {
  const answer = await fetch(`${nginx.hlsUrl}/${key}.m3u8`, { headers: { origin: 'https://evil.example' } });
  expect(answer.headers.get('access-control-allow-origin')).toBeNull();
});
