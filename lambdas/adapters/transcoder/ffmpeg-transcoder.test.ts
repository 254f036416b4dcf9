// The local transcoder end to end: real ffmpeg, real s3rver. Sources are generated here (a few seconds each) and
// every output is checked with ffprobe against the media spec.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { audioOutput, outputSettings, videoOutput, type MediaKind, type OutputSettings, type QualityChoice, type TranscodeLimits } from '../../core/media-spec';
import { FfmpegTranscoder } from './ffmpeg-transcoder';
import { localCredentials } from '../aws-clients';
import {
  createTestBucket,
  ffmpeg,
  greyFrame,
  keyframeTimes,
  peakVolumeDb,
  probeStreams,
  roomyLimits,
  topLevelBoxes,
  type ProbedStream,
} from '../../../test/helpers/transcode-fixtures';
import type { TranscodeUpdate } from '../../core/media/transcoder';

const aacFrameSeconds = 1024 / audioOutput.sampleRate;
const run = promisify(execFile);

let s3: S3Client;
let bucket: string;
let dir: string;
let transcoder: FfmpegTranscoder;
const updates = new Map<string, TranscodeUpdate[]>();
const finished = new Map<string, (update: TranscodeUpdate) => void>();

beforeAll(async () => {
  ({ s3, bucket } = await createTestBucket());
  dir = await mkdtemp(join(tmpdir(), 'loopcast-transcoder-test-'));
  transcoder = new FfmpegTranscoder({
    s3,
    bucket,
    workDir: join(dir, 'work'),
    onUpdate: (update) => {
      updates.set(update.jobId, [...(updates.get(update.jobId) ?? []), update]);
      if (update.type !== 'progress') finished.get(update.jobId)?.(update);
    },
  });
});

afterAll(async () => {
  await transcoder.close();
  await rm(dir, { recursive: true, force: true });
});

/** Uploads a source as the tus upload would leave it, transcodes it, and answers every update of the job. */
async function transcode(
  sourceFile: string,
  kind: MediaKind,
  limits: TranscodeLimits = roomyLimits,
  quality: QualityChoice = { profile: '1080p30', tier: 'low' },
): Promise<{ updates: TranscodeUpdate[]; outputPrefix: string }> {
  const userId = `u${randomBytes(3).toString('hex')}`;
  const videoId = `v${randomBytes(3).toString('hex')}`;
  const outputPrefix = `media/${userId}/${videoId}/`;
  const sourceKey = `${outputPrefix}source`;
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: sourceKey, Body: await readFile(sourceFile) }));
  const jobId = await transcoder.start({ userId, videoId, kind, sourceKey, outputPrefix, revision: 0, quality, limits });
  await new Promise<void>((resolve) => {
    finished.set(jobId, () => resolve());
    if (updates.get(jobId)?.some((u) => u.type !== 'progress')) resolve();
  });
  return { updates: updates.get(jobId) ?? [], outputPrefix };
}

async function download(key: string): Promise<string> {
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const file = join(dir, key.replaceAll('/', '_'));
  await writeFile(file, await object.Body!.transformToByteArray());
  return file;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

const streamOf = (streams: ProbedStream[], type: string) => {
  const stream = streams.find((s) => s.codec_type === type);
  if (!stream) throw new Error(`no ${type} stream`);
  return stream;
};

/** Three passes of the file as the stream task loops it (stream copy into FLV): every decode timestamp later than the
 * last, video advancing exactly one frame across each seam, audio by less than two AAC frames. */
async function expectSeamlessCopyLoop(file: string, frameRate: number): Promise<void> {
  const looped = `${file}.loop.flv`;
  await ffmpeg(['-stream_loop', '2', '-i', file, '-map', '0', '-c', 'copy', '-f', 'flv', '-y', looped]);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'packet=codec_type,dts_time', '-of', 'csv=p=0', looped]);
  const last = new Map<string, number>();
  const largestStep = new Map<string, number>();
  for (const line of stdout.trim().split('\n')) {
    const [type, dts] = [line.split(',')[0]!, Number(line.split(',')[1])];
    const previous = last.get(type);
    if (previous !== undefined) {
      expect(dts).toBeGreaterThan(previous);
      largestStep.set(type, Math.max(largestStep.get(type) ?? 0, dts - previous));
    }
    last.set(type, dts);
  }
  expect(largestStep.get('video')).toBeLessThanOrEqual(1 / frameRate + 0.0015);
  expect(largestStep.get('audio')).toBeLessThan(2 * aacFrameSeconds);
}

/** Everything DESIGN.md step 3 promises about a stream-ready video file, at the output profile made. */
async function expectStreamReady(file: string, expectedSeconds: number, output: OutputSettings): Promise<void> {
  const { streams, format } = await probeStreams(file);
  const video = streamOf(streams, 'video');
  const audio = streamOf(streams, 'audio');
  expect(streams).toHaveLength(2);
  expect(video).toMatchObject({
    codec_name: 'h264',
    profile: 'High',
    level: Math.round(Number(output.level) * 10),
    pix_fmt: 'yuv420p',
    width: output.width,
    height: output.height,
    r_frame_rate: `${output.frameRate}/1`,
  });
  // Constant bitrate: filler keeps it from going below; above only by what the HRD buffer held at the start,
  // which a clip of a few seconds spends visibly (a long video does not).
  const bitrate = Number(video.bit_rate);
  expect(bitrate).toBeGreaterThan(0.97 * output.videoBitrate);
  expect(bitrate).toBeLessThan(output.videoBitrate + (videoOutput.bufferInitialFill * output.bufferBits) / expectedSeconds);
  expect(audio).toMatchObject({ codec_name: 'aac', profile: 'LC', sample_rate: '44100', channels: 2 });
  expect(Number(video.duration)).toBeCloseTo(expectedSeconds, 3);
  // The audio's AAC frames end just inside the video (media-spec.ts, loopAudioSamples): the copy loop is seamless.
  expect(Number(audio.duration)).toBeLessThan(Number(video.duration));
  expect(Number(audio.duration)).toBeGreaterThan(Number(video.duration) - 2 * aacFrameSeconds);
  expect(Number(format.duration)).toBeCloseTo(expectedSeconds, 3);
  await expectSeamlessCopyLoop(file, output.frameRate);

  const keyframes = await keyframeTimes(file);
  const expected = Array.from({ length: Math.ceil(expectedSeconds / 2) }, (_, i) => 2 * i);
  expect(keyframes).toEqual(expected);

  const boxes = topLevelBoxes(await readFile(file));
  expect(boxes.indexOf('moov')).toBeGreaterThan(-1);
  expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
}

/** Mean brightness of a column range of a grey frame (0-255). */
function meanBrightness(frame: Buffer, width: number, fromColumn: number, toColumn: number): number {
  let sum = 0;
  let count = 0;
  for (let row = 0; row < frame.length / width; row++) {
    for (let column = fromColumn; column < toColumn; column++) {
      sum += frame[row * width + column]!;
      count++;
    }
  }
  return sum / count;
}

async function expectThumbnail(key: string): Promise<void> {
  const file = await download(key);
  const bytes = await readFile(file);
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  const { streams } = await probeStreams(file);
  expect(streamOf(streams, 'video')).toMatchObject({ codec_name: 'mjpeg', width: 1280, height: 720 });
}

function finalUpdate(jobUpdates: TranscodeUpdate[]): TranscodeUpdate {
  const final = jobUpdates.filter((u) => u.type !== 'progress');
  expect(final).toHaveLength(1);
  expect(jobUpdates.at(-1)).toBe(final[0]);
  return final[0]!;
}

function expectProgress(jobUpdates: TranscodeUpdate[]): void {
  const percents = jobUpdates.flatMap((u) => (u.type === 'progress' ? [u.percent] : []));
  expect(percents.length).toBeGreaterThan(0);
  expect(percents).toEqual([...percents].sort((a, b) => a - b));
  expect(new Set(percents).size).toBe(percents.length);
  expect(Math.max(...percents)).toBeLessThan(100);
}

describe('video', () => {
  // 12 s at the high tier: long enough for six GOPs and for an output above the 8 MiB multipart threshold (the
  // multipart upload).
  test('4:3 640x480 at 25 fps with a longer audio track, asked for 1080p30 high: 720p (no upscaling) high, pillarboxed, 30 fps, audio cut to the video', async () => {
    const source = join(dir, 'four-three.mp4');
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x480:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-filter_complex',
      '[0:v]trim=end=12[v];[1:a]atrim=end=14,aformat=channel_layouts=stereo[a]',
      '-map',
      '[v]',
      '-map',
      '[a]',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      source,
    ]);
    const { updates: jobUpdates, outputPrefix } = await transcode(source, 'video', roomyLimits, { profile: '1080p30', tier: 'high' });

    expectProgress(jobUpdates);
    const final = finalUpdate(jobUpdates);
    expect(final).toMatchObject({ type: 'completed', job: { kind: 'video' } });
    if (final.type !== 'completed' || final.result.kind !== 'video') throw new Error('not completed');
    const { result } = final;
    expect(result).toMatchObject({
      width: 1280,
      height: 720,
      output: outputSettings('720p30', 'high', ['source size']),
      outputKey: `${outputPrefix}stream.mp4`,
      thumbnailKey: `${outputPrefix}thumb.jpg`,
    });
    expect(result.durationSeconds).toBeCloseTo(12, 2);
    expect(result.sizeBytes).toBeGreaterThan(8 * 1024 * 1024);
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: result.outputKey }));
    expect(result.sizeBytes).toBe(head.ContentLength);
    expect(head.ContentType).toBe('video/mp4');
    expect(result.thumbnailBytes).toBe((await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: result.thumbnailKey }))).ContentLength);

    const output = await download(result.outputKey);
    await expectStreamReady(output, 12, result.output);
    // 640x480 scaled to 960x720 in the middle: black bars of 160 px left and right (1/8 of the width each).
    const frame = await greyFrame(output, 1, 192, 108);
    expect(meanBrightness(frame, 192, 0, 22)).toBeLessThan(20);
    expect(meanBrightness(frame, 192, 170, 192)).toBeLessThan(20);
    expect(meanBrightness(frame, 192, 30, 162)).toBeGreaterThan(40);
    await expectThumbnail(result.thumbnailKey);
    expect(await keysUnder(outputPrefix)).toEqual([`${outputPrefix}source`, `${outputPrefix}stream.mp4`, `${outputPrefix}thumb.jpg`]);
  }, 180_000);

  test('a 16:9 720p 30 fps MOV without sound and with 5 s GOPs is normalised: 720p full frame, 2 s GOPs, a silent stereo track', async () => {
    const source = join(dir, 'silent.mov');
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=30',
      '-t',
      '3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-profile:v',
      'high',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '150',
      source,
    ]);
    const { updates: jobUpdates } = await transcode(source, 'video');
    const final = finalUpdate(jobUpdates);
    if (final.type !== 'completed' || final.result.kind !== 'video') throw new Error(`not completed: ${JSON.stringify(final)}`);

    expect(final.result.output).toEqual(outputSettings('720p30', 'low', ['source size']));
    const output = await download(final.result.outputKey);
    await expectStreamReady(output, 3, final.result.output);
    const frame = await greyFrame(output, 1, 192, 108);
    expect(meanBrightness(frame, 192, 0, 8)).toBeGreaterThan(40);
    // The added track is silence.
    expect(await peakVolumeDb(output)).toBeLessThan(-90);
  }, 180_000);

  test('a portrait 360x640 MKV with a shorter 5.1 track: pillarboxed in 720p, audio padded with silence to the video length', async () => {
    const source = join(dir, 'portrait.mkv');
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=360x640:rate=30',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=300:sample_rate=48000',
      '-filter_complex',
      '[0:v]trim=end=4[v];[1:a]atrim=end=2,aformat=channel_layouts=5.1[a]',
      '-map',
      '[v]',
      '-map',
      '[a]',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      source,
    ]);
    const { updates: jobUpdates } = await transcode(source, 'video');
    const final = finalUpdate(jobUpdates);
    if (final.type !== 'completed' || final.result.kind !== 'video') throw new Error(`not completed: ${JSON.stringify(final)}`);

    const output = await download(final.result.outputKey);
    await expectStreamReady(output, 4, final.result.output);
    // The 5.1 tone is heard on both sides for its 2 s, then silence to the end.
    expect(await peakVolumeDb(output, { channel: 0, from: 0.2, to: 1.8 })).toBeGreaterThan(-40);
    expect(await peakVolumeDb(output, { channel: 1, from: 0.2, to: 1.8 })).toBeGreaterThan(-40);
    expect(await peakVolumeDb(output, { from: 2.2, to: 4 })).toBeLessThan(-90);
    // 360x640 becomes 406x720 in the middle of 1280.
    const frame = await greyFrame(output, 1, 192, 108);
    expect(meanBrightness(frame, 192, 0, 60)).toBeLessThan(20);
    expect(meanBrightness(frame, 192, 70, 122)).toBeGreaterThan(40);
    expect(meanBrightness(frame, 192, 132, 192)).toBeLessThan(20);
  }, 180_000);
});

describe('60 fps', () => {
  test('a 1080p 59.94 fps source asked for 1080p60 medium keeps 60 fps: 120-frame GOPs, level 4.2, 6.75 Mbit/s, seamless copy loop', async () => {
    const source = join(dir, 'sixty.mp4');
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1920x1080:rate=60000/1001',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=500:sample_rate=48000',
      '-t',
      '3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      source,
    ]);
    const { updates: jobUpdates } = await transcode(source, 'video', roomyLimits, { profile: '1080p60', tier: 'medium' });
    const final = finalUpdate(jobUpdates);
    if (final.type !== 'completed' || final.result.kind !== 'video') throw new Error(`not completed: ${JSON.stringify(final)}`);
    expect(final.result.output).toEqual(outputSettings('1080p60', 'medium'));
    await expectStreamReady(await download(final.result.outputKey), 3, final.result.output);
  }, 180_000);

  test('the same source on a plan without 60 fps is halved to 1080p30 and says why', async () => {
    const source = join(dir, 'sixty.mp4');
    const { updates: jobUpdates } = await transcode(
      source,
      'video',
      { ...roomyLimits, outputProfiles: ['720p30', '1080p30'] },
      { profile: '1080p60', tier: 'low' },
    );
    const final = finalUpdate(jobUpdates);
    if (final.type !== 'completed' || final.result.kind !== 'video') throw new Error(`not completed: ${JSON.stringify(final)}`);
    expect(final.result.output).toEqual(outputSettings('1080p30', 'low', ['plan']));
    await expectStreamReady(await download(final.result.outputKey), 3, final.result.output);
  }, 180_000);
});

describe('audio only', () => {
  test.each([
    ['MP3 stereo 48 kHz', 'tone.mp3', ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=3', '-ac', '2', '-c:a', 'libmp3lame'], 3],
    ['WAV mono 48 kHz', 'voice.wav', ['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000:duration=2', '-c:a', 'pcm_s16le'], 2],
  ])(
    '%s becomes AAC-LC 128k 44.1 kHz stereo in an .m4a',
    async (_name, fileName, args, seconds) => {
      const source = join(dir, fileName);
      await ffmpeg([...args, source]);
      const { updates: jobUpdates, outputPrefix } = await transcode(source, 'audio');
      const final = finalUpdate(jobUpdates);
      if (final.type !== 'completed') throw new Error(`not completed: ${JSON.stringify(final)}`);
      expect(final.result).toEqual({
        kind: 'audio',
        durationSeconds: expect.any(Number),
        sizeBytes: expect.any(Number),
        outputKey: `${outputPrefix}stream.m4a`,
      });
      expect(final.result.durationSeconds).toBeCloseTo(seconds, 1);

      const output = await download(final.result.outputKey);
      const { streams, format } = await probeStreams(output);
      expect(streams).toHaveLength(1);
      expect(streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'aac', profile: 'LC', sample_rate: '44100', channels: 2 });
      expect(Math.abs(Number(streams[0]!.bit_rate) - audioOutput.bitrate) / audioOutput.bitrate).toBeLessThan(0.15);
      expect(format.format_name).toContain('mp4');
      // Mono is heard on both sides.
      expect(await peakVolumeDb(output, { channel: 0 })).toBeGreaterThan(-40);
      expect(await peakVolumeDb(output, { channel: 1 })).toBeGreaterThan(-40);
      expect(topLevelBoxes(await readFile(output)).indexOf('moov')).toBeLessThan(topLevelBoxes(await readFile(output)).indexOf('mdat'));
      expect(await keysUnder(outputPrefix)).toEqual([`${outputPrefix}source`, `${outputPrefix}stream.m4a`]);
    },
    120_000,
  );
});

describe('files that are not what they claim', () => {
  test('random bytes named .mp4 fail with the catalogued encode error, write nothing and touch nothing else', async () => {
    const userId = 'u-corrupt';
    const neighbour = `media/${userId}/earlier/stream.mp4`;
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: neighbour, Body: 'an earlier video' }));
    const source = join(dir, 'corrupt.mp4');
    // Noise from a fixed seed: the same bytes every run, so no run can happen to look like a real format.
    const noise = Array.from({ length: 8192 }, (_, i) => createHash('sha256').update(`noise-${i}`).digest());
    await writeFile(source, Buffer.concat(noise));

    const { updates: jobUpdates, outputPrefix } = await transcode(source, 'video');
    expect(finalUpdate(jobUpdates)).toMatchObject({ type: 'failed', error: 'uploader encode error', job: { kind: 'video' } });
    expect(await keysUnder(outputPrefix)).toEqual([`${outputPrefix}source`]);
    expect((await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: neighbour }))).ContentLength).toBe('an earlier video'.length);
  }, 60_000);

  test('an MP3 uploaded as a video fails with the encode error: it has no picture', async () => {
    const source = join(dir, 'song.mp3');
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'libmp3lame', source]);
    const { updates: jobUpdates, outputPrefix } = await transcode(source, 'video');
    expect(finalUpdate(jobUpdates)).toMatchObject({ type: 'failed', error: 'uploader encode error', reason: 'the file has no video track' });
    expect(await keysUnder(outputPrefix)).toEqual([`${outputPrefix}source`]);
  }, 60_000);

  // Security audit M6: a tiny source became a 29 times larger output, with no limit on its length.
  test("a source longer than the plan allows fails with 'video too long' before anything is encoded", async () => {
    const source = join(dir, 'long-still.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'color=c=black:s=64x64:r=1:d=40', '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'stillimage', source]);
    const { updates: jobUpdates, outputPrefix } = await transcode(source, 'video', { ...roomyLimits, maxDurationSeconds: 30 });
    expect(jobUpdates).toEqual([expect.objectContaining({ type: 'failed', error: 'video too long' })]);
    expect(await keysUnder(outputPrefix)).toEqual([`${outputPrefix}source`]);
  }, 60_000);

  test("outputs that would not fit in the storage left fail with 'storage limit' before anything is encoded", async () => {
    const source = join(dir, 'small-still.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'color=c=black:s=64x64:r=1:d=6', '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'stillimage', source]);
    // 6 s at 3.128 Mbit/s and the thumbnail's allowance is about 2.9 MB stored, from a source of a few kilobytes.
    const { updates: jobUpdates, outputPrefix } = await transcode(source, 'video', { ...roomyLimits, storageBytesLeft: 2 * 1024 * 1024 });
    expect(jobUpdates).toEqual([expect.objectContaining({ type: 'failed', error: 'storage limit' })]);
    expect(await keysUnder(outputPrefix)).toEqual([`${outputPrefix}source`]);
  }, 60_000);

  // Security audit M1: an uploaded HLS playlist made ffmpeg copy a file of the server into the user's video.
  test.each([
    [
      'an HLS playlist naming a file of the server',
      (secret: string) => `#EXTM3U\n#EXT-X-TARGETDURATION:5\n#EXTINF:2.0,\nfile://${secret}\n#EXTINF:2.0,\n${secret}\n#EXT-X-ENDLIST\n`,
    ],
    ['a concat list naming a file of the server', (secret: string) => `ffconcat version 1.0\nfile '${secret}'\n`],
    [
      'an SDP description reaching for the network',
      () => 'v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=video 5004 RTP/AVP 96\na=rtpmap:96 H264/90000\n',
    ],
  ])(
    '%s is refused with the encode error and nothing of it is stored',
    async (_, contents) => {
      const secret = join(dir, 'server-secret.ts');
      await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30:duration=3', '-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mpegts', secret]);
      const source = join(dir, 'playlist-upload');
      await writeFile(source, contents(secret));
      const { updates: jobUpdates, outputPrefix } = await transcode(source, 'video');
      expect(finalUpdate(jobUpdates)).toMatchObject({ type: 'failed', error: 'uploader encode error' });
      expect(await keysUnder(outputPrefix)).toEqual([`${outputPrefix}source`]);
    },
    60_000,
  );

  test('temporary files are removed after every job', async () => {
    expect(await readdir(join(dir, 'work'))).toEqual([]);
  });
});

describe('close', () => {
  test('stops the running ffmpeg and drops queued jobs without reporting them, and removes their files', async () => {
    const source = join(dir, 'to-abandon.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=640x480:rate=30', '-t', '5', '-c:v', 'libx264', '-preset', 'ultrafast', source]);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'media/u-close/v1/source', Body: await readFile(source) }));
    const workDir = join(dir, 'work-close');
    const seen: TranscodeUpdate[] = [];
    let closed: Promise<void> | undefined;
    const closing = new FfmpegTranscoder({
      s3,
      bucket,
      workDir,
      onUpdate: (update) => {
        seen.push(update);
        // Close from inside the first progress report: ffmpeg is certainly still running.
        closed ??= closing.close();
      },
    });
    const job = {
      userId: 'u-close',
      videoId: 'v1',
      kind: 'video' as const,
      sourceKey: 'media/u-close/v1/source',
      outputPrefix: 'media/u-close/v1/',
      revision: 0,
      quality: { profile: '1080p30' as const, tier: 'low' as const },
      limits: roomyLimits,
    };
    await closing.start(job);
    await closing.start({ ...job, videoId: 'v2', outputPrefix: 'media/u-close/v2/' });
    await new Promise<void>((resolve) => {
      const wait = () => (closed ? void closed.then(() => resolve()) : setTimeout(wait, 50));
      wait();
    });

    expect(seen.map((u) => u.type)).toEqual(['progress']);
    expect(await readdir(workDir)).toEqual([]);
    expect(await keysUnder('media/u-close/')).toEqual(['media/u-close/v1/source']);
    await expect(closing.start(job)).rejects.toThrow('closed');
  }, 60_000);
});

describe('a busy S3', () => {
  test('a connection reset while an output is sent is retried: the video is made, nothing is lost', async () => {
    // A proxy in front of s3rver that cuts the first PUT of a thumbnail before answering, as an overloaded or
    // restarting S3 endpoint does; every other request passes through.
    const target = new URL(process.env.LOOPCAST_TEST_S3!);
    let cut = 0;
    const proxy = createServer((request, response) => {
      if (request.method === 'PUT' && new URL(request.url!, 'http://s3').pathname.endsWith('/thumb.jpg') && cut === 0) {
        cut += 1;
        request.socket.destroy();
        return;
      }
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const busy = new FfmpegTranscoder({
      s3: new S3Client({
        region: 'us-east-1',
        endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        forcePathStyle: true,
        credentials: localCredentials,
      }),
      bucket,
      workDir: join(dir, 'work-busy'),
      onUpdate: (update) => {
        if (update.type !== 'progress') finished.get(update.jobId)?.(update);
      },
    });
    try {
      const source = join(dir, 'busy-s3.mp4');
      await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', source]);
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'media/u-busy/v1/source', Body: await readFile(source) }));
      const job = {
        userId: 'u-busy',
        videoId: 'v1',
        kind: 'video' as const,
        sourceKey: 'media/u-busy/v1/source',
        outputPrefix: 'media/u-busy/v1/',
        revision: 0,
      };
      const jobId = await busy.start({ ...job, quality: { profile: '1080p30', tier: 'low' }, limits: roomyLimits });
      const outcome = await new Promise<TranscodeUpdate>((resolve) => finished.set(jobId, resolve));
      expect(outcome).toMatchObject({ type: 'completed' });
      expect(cut).toBe(1);
      expect(await keysUnder('media/u-busy/v1/')).toEqual(expect.arrayContaining(['media/u-busy/v1/source', 'media/u-busy/v1/thumb.jpg']));
    } finally {
      await busy.close();
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 60_000);
});
