// The preview the Streams page shows in AWS: every minute, one frame of the looping video at the point the loop has
// reached, small and cheap (a single decode at low priority; the stream itself is never re-encoded).
import { spawn } from 'node:child_process';

export const PREVIEW_INTERVAL_MS = 60_000;

/** One JPEG frame of `videoPath` at `seconds`, 640 pixels wide. */
export function grabFrame(videoPath: string, seconds: number, ffmpegPath = 'ffmpeg'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('nice', ['-n', '15', ffmpegPath, '-nostdin', '-v', 'error', '-ss', seconds.toFixed(3), '-i', videoPath, '-frames:v', '1', '-vf', 'scale=640:-2', '-q:v', '6', '-f', 'mjpeg', 'pipe:1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    const chunks: Buffer[] = [];
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
    child.once('error', reject);
    child.once('close', (code) => {
      const frame = Buffer.concat(chunks);
      if (code === 0 && frame.length > 0) resolve(frame);
      else reject(new Error(`no preview frame (ffmpeg exit ${code}): ${errors.trim().slice(0, 200)}`));
    });
  });
}

/** Where in the loop a stream is after `elapsedMs` of playing a loop of `loopDurationUs`. */
export const loopPosition = (elapsedMs: number, loopDurationUs: number): number =>
  loopDurationUs > 0 ? ((elapsedMs * 1000) % loopDurationUs) / 1_000_000 : 0;
