// The preview the Streams page shows in AWS: while someone has the page open, one frame a minute of the looping
// video at the point the loop has reached, small and cheap (a single decode at low priority; the stream itself is
// never re-encoded). Nobody watching, no frames: each one is a request and an S3 PUT.
import { spawn } from 'node:child_process';

export const PREVIEW_INTERVAL_MS = 60_000;

/** One JPEG frame of `videoPath` at `seconds`, 640 pixels wide. */
export function grabFrame(videoPath: string, seconds: number, ffmpegPath = 'ffmpeg'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'nice',
      [
        '-n',
        '15',
        ffmpegPath,
        '-nostdin',
        '-v',
        'error',
        '-ss',
        seconds.toFixed(3),
        '-i',
        videoPath,
        '-frames:v',
        '1',
        '-vf',
        'scale=640:-2',
        '-q:v',
        '6',
        '-f',
        'mjpeg',
        'pipe:1',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      },
    );
    const chunks: Buffer[] = [];
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const frame = Buffer.concat(chunks);
      if (code === 0 && frame.length > 0) resolve(frame);
      else reject(new Error(`no preview frame (ffmpeg exit ${code}): ${errors.trim().slice(0, 200)}`));
    });
  });
}

/** Where in the loop a stream is after `elapsedMs` of playing a loop of `loopDurationUs`. */
export const loopPosition = (elapsedMs: number, loopDurationUs: number): number => (loopDurationUs > 0 ? ((elapsedMs * 1000) % loopDurationUs) / 1_000_000 : 0);

/**
 * Takes preview frames while they are wanted (the task API says so with each heartbeat's answer): one at once when
 * they become wanted, then one every PREVIEW_INTERVAL_MS; none before the media is ready or while nobody watches.
 */
export class PreviewTaker {
  private locate?: (now: number) => { path: string; seconds: number };
  private timer?: ReturnType<typeof setInterval>;
  private isWanted = false;

  constructor(
    private readonly publish: (jpeg: Buffer) => Promise<void>,
    private readonly onFailure: (error: Error) => void,
    private readonly grab: typeof grabFrame = grabFrame,
  ) {}

  /** The media is ready: frames can be taken from now on, at the file and position `locate` says is playing. */
  ready(locate: (now: number) => { path: string; seconds: number }): void {
    this.locate = locate;
    this.update();
  }

  wanted(wanted: boolean): void {
    this.isWanted = wanted;
    this.update();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private update(): void {
    if (!(this.isWanted && this.locate)) return this.close();
    if (this.timer) return;
    this.take();
    this.timer = setInterval(() => this.take(), PREVIEW_INTERVAL_MS);
  }

  private take(): void {
    const { path, seconds } = this.locate!(Date.now());
    this.grab(path, seconds).then(this.publish).catch(this.onFailure);
  }
}
