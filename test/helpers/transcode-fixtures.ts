// For tests only: a fresh bucket on the run's s3rver, sources generated with ffmpeg, and ffprobe readings of
// outputs. Everything runs asynchronously (s3rver shares the test's event loop).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { S3Client } from '@aws-sdk/client-s3';
import { createBucket } from '../../local/provision';
import { outputProfileIds, type TranscodeLimits } from '../../lambdas/core/media-spec';
import { run } from '../../lambdas/adapters/transcoder/child-process';
import { localCredentials } from '../../lambdas/adapters/aws-clients';

export async function createTestBucket(): Promise<{ s3: S3Client; bucket: string }> {
  const endpoint = process.env.LOOPCAST_TEST_S3;
  if (!endpoint) throw new Error('the global test setup did not run (LOOPCAST_TEST_S3 is unset)');
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: localCredentials,
  });
  const bucket = `t${randomBytes(4).toString('hex')}-media`;
  await createBucket(s3, bucket);
  return { s3, bucket };
}

/** Limits no test source comes near (a day long, a terabyte left, every profile), for tests about something else. */
export const roomyLimits: TranscodeLimits = { maxDurationSeconds: 24 * 3600, storageBytesLeft: 1024 ** 4, outputProfiles: outputProfileIds };

/** Runs ffmpeg to make a test source; fails the test with ffmpeg's message if it cannot. */
export async function ffmpeg(args: string[]): Promise<void> {
  const result = await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (result.exitCode !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${result.stderrTail}`);
}

async function ffprobeJson<T>(args: string[]): Promise<T> {
  const result = await run('ffprobe', ['-v', 'error', '-print_format', 'json', ...args]);
  if (result.exitCode !== 0) throw new Error(`ffprobe ${args.join(' ')}: ${result.stderrTail}`);
  return JSON.parse(result.stdout) as T;
}

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  profile?: string;
  level?: number;
  width?: number;
  height?: number;
  pix_fmt?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  bit_rate?: string;
}

export async function probeStreams(file: string): Promise<{ streams: ProbedStream[]; format: { duration: string; format_name: string } }> {
  return ffprobeJson(['-show_streams', '-show_format', file]);
}

/** Presentation times of the video's keyframes (packets flagged K). */
export async function keyframeTimes(file: string): Promise<number[]> {
  const { packets } = await ffprobeJson<{ packets: { pts_time: string; flags: string }[] }>([
    '-select_streams',
    'v:0',
    '-show_entries',
    'packet=pts_time,flags',
    file,
  ]);
  return packets
    .filter((p) => p.flags.startsWith('K'))
    .map((p) => Number(p.pts_time))
    .sort((a, b) => a - b);
}

/** One frame, scaled down and grey, as bytes (row by row), to look at where the picture and the black bars are. */
export async function greyFrame(file: string, atSeconds: number, width: number, height: number): Promise<Buffer> {
  const frame = `${file}.${atSeconds}.gray`;
  await ffmpeg(['-ss', String(atSeconds), '-i', file, '-frames:v', '1', '-vf', `scale=${width}:${height}:flags=neighbor,format=gray`, '-f', 'rawvideo', frame]);
  return readFile(frame);
}

/** Top-level MP4 boxes in file order (ftyp, moov, mdat, ...). */
export function topLevelBoxes(file: Buffer): string[] {
  const boxes: string[] = [];
  for (let offset = 0; offset + 8 <= file.length;) {
    const size32 = file.readUInt32BE(offset);
    boxes.push(file.toString('latin1', offset + 4, offset + 8));
    const size = size32 === 1 ? Number(file.readBigUInt64BE(offset + 8)) : size32 === 0 ? file.length - offset : size32;
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

/** Peak level in dBFS of the first audio track, or of one channel of it, optionally between two times
 * (ffmpeg reports digital silence as -91 dB). */
export async function peakVolumeDb(file: string, part: { channel?: number; from?: number; to?: number } = {}): Promise<number> {
  const filters = [
    ...(part.from !== undefined || part.to !== undefined ? [`atrim=start=${part.from ?? 0}${part.to !== undefined ? `:end=${part.to}` : ''}`] : []),
    ...(part.channel !== undefined ? [`pan=mono|c0=c${part.channel}`] : []),
    'volumedetect',
  ];
  const result = await run('ffmpeg', ['-nostdin', '-hide_banner', '-i', file, '-map', '0:a:0', '-af', filters.join(','), '-f', 'null', '-']);
  const match = /max_volume: (-?[\d.]+|-inf) dB/.exec(result.stderrTail);
  if (!match) throw new Error(`no volume for ${file}: ${result.stderrTail}`);
  return match[1] === '-inf' ? -Infinity : Number(match[1]);
}

/** User metadata of the job that jobEvent reports on. */
export const jobMetadata = {
  userId: 'user-1',
  videoId: 'video-1',
  kind: 'video',
  outputPrefix: 'media/user-1/video-1/',
  revision: '0',
  profile: '1080p30',
  tier: 'low',
  limitedBy: '',
};

/** An EventBridge "MediaConvert Job State Change" event as delivered (the envelope of the MediaConvert user
 * guide's examples), for jobMetadata's job unless `detail` says otherwise. */
export function jobEvent(detail: Record<string, unknown>) {
  return {
    version: '0',
    id: '1234abcd-12ab-34cd-56ef-1234567890ab',
    'detail-type': 'MediaConvert Job State Change',
    source: 'aws.mediaconvert',
    account: '111122223333',
    time: '2022-12-19T19:21:21Z',
    region: 'us-west-2',
    resources: ['arn:aws:mediaconvert:us-west-2:111122223333:jobs/1671477617078-2886ye'],
    detail: {
      timestamp: 1671477681737,
      accountId: '111122223333',
      queue: 'arn:aws:mediaconvert:us-west-2:111122223333:queues/Loopcast-prod',
      jobId: '1671477617078-2886ye',
      userMetadata: jobMetadata,
      ...detail,
    },
  };
}
