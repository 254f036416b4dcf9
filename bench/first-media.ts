// What the stream benches share: a source in the stream-ready format, and a player that notes when the first
// media packet arrives.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { loopAudioSamples } from '../lambdas/core/media-spec';

const run = promisify(execFile);

const SECONDS = 10;
const FRAME_RATE = 30;

/** The stream-ready format the transcode produces: H.264 High, constant 6 Mbit/s, closed 2 s GOP, AAC-LC ending
 * just inside the picture (loopAudioSamples: a copy loop is seamless, no remux before streaming); 10 s. */
export async function makeStreamReadySource(path: string): Promise<string> {
  await run(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1920x1080:rate=${FRAME_RATE},noise=alls=12:allf=t`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
      '-af',
      `atrim=end_sample=${loopAudioSamples(SECONDS * FRAME_RATE, FRAME_RATE)}`,
      '-t',
      String(SECONDS),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-profile:v',
      'high',
      '-pix_fmt',
      'yuv420p',
      '-b:v',
      '6M',
      '-minrate',
      '6M',
      '-maxrate',
      '6M',
      '-bufsize',
      '12M',
      '-x264-params',
      'nal-hrd=cbr',
      '-g',
      '60',
      '-keyint_min',
      '60',
      '-sc_threshold',
      '0',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-movflags',
      '+faststart',
      path,
    ],
    { maxBuffer: 1024 * 1024 },
  );
  return path;
}

/** Resolves with the time a player first receives a media packet from `url` (nginx-rtmp lets it wait for the publisher). */
export function firstMediaAt(url: string, timeoutMs = 60_000): { at: Promise<number>; reader: ChildProcess } {
  const reader = spawn(
    'ffprobe',
    ['-v', 'error', '-probesize', '32', '-analyzeduration', '0', '-read_intervals', '%+1', '-show_entries', 'packet=dts_time', '-of', 'csv=p=0', url],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const at = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no media at ${url} within ${timeoutMs} ms`)), timeoutMs);
    createInterface({ input: reader.stdout! }).once('line', () => {
      clearTimeout(timer);
      resolve(Date.now());
      reader.kill('SIGKILL');
    });
    reader.once('exit', () => reject(new Error('the player exited before any media')));
  });
  at.catch(() => reader.kill('SIGKILL'));
  return { at, reader };
}

/** A player connected to `playUrl` and waiting for a publisher (nginx-rtmp holds it): `start` the stream, and the
 * result says when it was started and when the player got its first packet (epoch ms). */
export async function startWatched(start: () => unknown, playUrl: string): Promise<{ startedAt: number; mediaAt: number }> {
  const media = firstMediaAt(playUrl);
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // the player's RTMP session is up before the clock starts
  const startedAt = Date.now();
  await start();
  return { startedAt, mediaAt: await media.at };
}
