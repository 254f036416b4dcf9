// Test media made with ffmpeg, uploads with tus-js-client, and waiting for library items and streams.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Upload } from 'tus-js-client';
import { api, type StackAccess } from './accounts';

const run = promisify(execFile);

/** A short test clip (colour bars and a tone), as a file and its bytes. */
export async function makeClip(
  options: { seconds?: number; size?: string; rate?: number; audioSeconds?: number; name?: string } = {},
): Promise<{ path: string; bytes: Buffer }> {
  const seconds = options.seconds ?? 3;
  const path = join(mkdtempSync(join(tmpdir(), 'loopcast-clip-')), options.name ?? 'clip.mp4');
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${options.size ?? '640x360'}:rate=${options.rate ?? 30}:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${options.audioSeconds ?? seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    path,
  ]);
  return { path, bytes: await readFile(path) };
}

/** Polls an item until it leaves `encoding` (transcoding is real ffmpeg work). */
export async function waitForItem(stack: StackAccess, token: string, videoId: string, timeoutMs = 120_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api(stack, 'GET', `/videos/${videoId}`, { token });
    if (status === 200 && body.status !== 'encoding') return body;
    if (Date.now() > deadline) throw new Error(`item ${videoId} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** tus metadata as the web app sends it; `profile` and `tier` choose a video's output (docs/api.md). */
export type UploadMetadata = { filename: string; filetype: string; kind: string; profile?: string; tier?: string };

/** Uploads bytes with tus-js-client as the web app does; answers the upload id (the library item's id). */
export function uploadWithTus(
  stack: StackAccess,
  token: string,
  bytes: Buffer,
  metadata: UploadMetadata = { filename: 'loop.mp4', filetype: 'video/mp4', kind: 'video' },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const tus = new Upload(bytes, {
      endpoint: `${stack.urls.api}/uploads`,
      chunkSize: 4 * 1024 * 1024,
      // A refusal is what the tests look at: no retries.
      retryDelays: [],
      metadata: { ...metadata },
      headers: { Authorization: `Bearer ${token}` },
      onError: reject,
      onSuccess: () => resolve(tus.url!.split('/').pop()!),
    });
    tus.start();
  });
}

/** Polls the stream until it has `status`; answers its view. */
export async function waitForStreamStatus(
  stack: StackAccess,
  token: string,
  streamId: string,
  status: string,
  timeoutMs = 60_000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api(stack, 'GET', `/streams/${streamId}`, { token });
    if (body.status === status) return body;
    if (Date.now() > deadline) throw new Error(`stream ${streamId} is ${body.status}, not ${status}, after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
