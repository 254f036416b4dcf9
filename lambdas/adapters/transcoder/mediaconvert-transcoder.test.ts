// The MediaConvert transcoder with the real SDK against a small fake of MediaConvert's REST API (restJson1:
// POST /2017-08-29/probe, POST /2017-08-29/jobs, lower-camel JSON), and s3rver for the outputs MediaConvert
// would have written. MediaConvert itself cannot run here; its control plane is all this code touches.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { MediaConvertClient } from '@aws-sdk/client-mediaconvert';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { outputSettings } from '../../core/media-spec';
import { MediaConvertTranscoder } from './mediaconvert-transcoder';
import { createTestBucket, jobEvent, jobMetadata, roomyLimits } from '../../../test/helpers/transcode-fixtures';
import type { TranscodeJob, TranscodeUpdate } from '../../core/media/transcoder';

interface Received {
  method: string;
  path: string;
  authorization: string;
  body: Record<string, unknown>;
}

type Answer = { status: number; body: unknown; errorType?: string };

/** Answers like MediaConvert's API: JSON bodies, errors named in the x-amzn-errortype header. */
class FakeMediaConvert {
  readonly received: Received[] = [];
  probe: Answer = { status: 200, body: { probeResults: [] } };
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.answer(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    this.received.push({ method: request.method ?? '', path: request.url ?? '', authorization: String(request.headers.authorization), body });
    const answer: Answer =
      request.method === 'POST' && request.url === '/2017-08-29/probe'
        ? this.probe
        : request.method === 'POST' && request.url === '/2017-08-29/jobs'
          ? {
              status: 201,
              body: {
                job: {
                  id: '1671477617078-2886ye',
                  arn: 'arn:aws:mediaconvert:us-east-1:111122223333:jobs/1671477617078-2886ye',
                  status: 'SUBMITTED',
                  role: body.role,
                  queue: body.queue,
                  userMetadata: body.userMetadata,
                  settings: body.settings,
                },
              },
            }
          : { status: 404, body: { message: 'not found' }, errorType: 'NotFoundException' };
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      ...(answer.errorType ? { 'x-amzn-errortype': answer.errorType } : {}),
    });
    response.end(JSON.stringify(answer.body));
  }
}

const fake = new FakeMediaConvert();
let s3: S3Client;
let bucket: string;
let transcoder: MediaConvertTranscoder;
let updates: TranscodeUpdate[];

const setup = {
  roleArn: 'arn:aws:iam::111122223333:role/Loopcast-test-MediaConvert',
  queueArn: 'arn:aws:mediaconvert:us-east-1:111122223333:queues/Loopcast-test',
};

beforeAll(async () => {
  ({ s3, bucket } = await createTestBucket());
  const endpoint = await fake.start();
  const mediaConvert = new MediaConvertClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
  transcoder = new MediaConvertTranscoder({ ...setup, bucket, mediaConvert, s3, onUpdate: (update) => void updates.push(update) });
});

afterAll(() => fake.stop());

beforeEach(() => {
  updates = [];
  fake.received.length = 0;
});

const videoJob: TranscodeJob = {
  userId: 'user-1',
  videoId: 'video-1',
  kind: 'video',
  sourceKey: 'media/user-1/video-1/source',
  outputPrefix: 'media/user-1/video-1/',
  revision: 0,
  quality: { profile: '1080p30', tier: 'low' },
  limits: roomyLimits,
};

/** Probe's answer for a 5 s 1440x1080 25 fps video with a 7 s stereo track. */
const probedVideo = {
  probeResults: [
    {
      container: {
        duration: 7.0,
        format: 'mp4',
        tracks: [
          {
            index: 1,
            trackType: 'video',
            codec: 'AVC',
            duration: 5.0,
            videoProperties: { width: 1440, height: 1080, frameRate: { numerator: 25, denominator: 1 }, sampleAspectRatio: { numerator: 1, denominator: 1 } },
          },
          { index: 2, trackType: 'audio', codec: 'AAC', duration: 7.0, audioProperties: { channels: 2, sampleRate: 48000 } },
        ],
      },
      metadata: { fileSize: 1234567, mimeType: 'video/mp4' },
    },
  ],
};

describe('start', () => {
  test('probes the source, then sends CreateJob with the media spec over the wire and answers the job id', async () => {
    fake.probe = { status: 200, body: probedVideo };
    const jobId = await transcoder.start(videoJob);

    expect(jobId).toBe('1671477617078-2886ye');
    expect(updates).toEqual([]);
    const [probe, create] = fake.received;
    expect(fake.received).toHaveLength(2);
    expect(probe).toMatchObject({
      method: 'POST',
      path: '/2017-08-29/probe',
      body: { inputFiles: [{ fileUrl: `s3://${bucket}/media/user-1/video-1/source` }] },
    });
    expect(create?.method).toBe('POST');
    expect(create?.path).toBe('/2017-08-29/jobs');
    expect(create?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/mediaconvert\/aws4_request/);

    // Lower-camel JSON on the wire: what MediaConvert receives, not just what we built.
    expect(create?.body).toMatchObject({
      role: setup.roleArn,
      queue: setup.queueArn,
      clientRequestToken: 'video-1-r0',
      statusUpdateInterval: 'SECONDS_10',
      userMetadata: jobMetadata,
      settings: {
        inputs: [{ fileInput: `s3://${bucket}/media/user-1/video-1/source`, videoSelector: { rotate: 'AUTO' } }],
        outputGroups: [
          {
            outputGroupSettings: { fileGroupSettings: { destination: `s3://${bucket}/media/user-1/video-1/stream` } },
            outputs: [
              {
                containerSettings: { mp4Settings: { moovPlacement: 'PROGRESSIVE_DOWNLOAD', audioDuration: 'MATCH_VIDEO_DURATION', freeSpaceBox: 'EXCLUDE' } },
                videoDescription: {
                  width: 1920,
                  height: 1080,
                  scalingBehavior: 'DEFAULT',
                  codecSettings: {
                    h264Settings: {
                      codecProfile: 'HIGH',
                      rateControlMode: 'CBR',
                      codecLevel: 'LEVEL_4_1',
                      bitrate: 3000000,
                      hrdBufferSize: 6000000,
                      framerateNumerator: 30,
                      framerateDenominator: 1,
                      gopSize: 2,
                      gopSizeUnits: 'SECONDS',
                      gopClosedCadence: 1,
                      sceneChangeDetect: 'DISABLED',
                      minIInterval: 0,
                    },
                  },
                },
                audioDescriptions: [
                  {
                    codecSettings: {
                      codec: 'AAC',
                      aacSettings: { codecProfile: 'LC', codingMode: 'CODING_MODE_2_0', rateControlMode: 'CBR', bitrate: 128000, sampleRate: 44100 },
                    },
                  },
                ],
              },
            ],
          },
          {
            outputGroupSettings: { fileGroupSettings: { destination: `s3://${bucket}/media/user-1/video-1/thumb` } },
            // The thumbnail 10 % into the 5 s video track (not the 7 s container).
            outputs: [
              {
                videoDescription: {
                  codecSettings: { frameCaptureSettings: { framerateNumerator: 1000, framerateDenominator: 500, maxCaptures: 2, quality: 80 } },
                },
              },
            ],
          },
        ],
      },
    });
  });

  test('a file Probe reads but that has no picture fails at once with the encode error; no job is created', async () => {
    fake.probe = {
      status: 200,
      body: {
        probeResults: [
          {
            container: { duration: 3, format: 'mp3', tracks: [{ index: 1, trackType: 'audio', codec: 'MP3', duration: 3, audioProperties: { channels: 2 } }] },
          },
        ],
      },
    };
    const jobId = await transcoder.start(videoJob);
    expect(updates).toEqual([
      {
        type: 'failed',
        jobId,
        job: { userId: 'user-1', videoId: 'video-1', kind: 'video', revision: 0 },
        error: 'uploader encode error',
        reason: 'the file has no video track',
      },
    ]);
    expect(fake.received.map((r) => r.path)).toEqual(['/2017-08-29/probe']);
  });

  // Security audit M6: the plan's limits are checked on Probe's reading, before any MediaConvert minute is spent.
  test.each([
    ['longer than the plan allows', { ...roomyLimits, maxDurationSeconds: 4 }, 'video too long'],
    // 5 s at 3.128 Mbit/s and the thumbnail's allowance: about 2.5 MB.
    ['whose outputs would not fit in the storage left', { ...roomyLimits, storageBytesLeft: 2 * 1024 * 1024 }, 'storage limit'],
  ] as const)('a source %s fails at once; no job is created', async (_, limits, error) => {
    fake.probe = { status: 200, body: probedVideo };
    const jobId = await transcoder.start({ ...videoJob, limits });
    expect(updates).toEqual([expect.objectContaining({ type: 'failed', jobId, error })]);
    expect(fake.received.map((r) => r.path)).toEqual(['/2017-08-29/probe']);
  });

  test('a file Probe cannot parse (400 BadRequestException) fails with the encode error', async () => {
    fake.probe = { status: 400, body: { message: 'Unable to determine the container format' }, errorType: 'BadRequestException' };
    await transcoder.start(videoJob);
    expect(updates).toMatchObject([{ type: 'failed', error: 'uploader encode error' }]);
    expect(fake.received).toHaveLength(1);
  });

  test('a service failure is not blamed on the file: start rejects, so the caller (Lambda) retries', async () => {
    fake.probe = { status: 500, body: { message: 'internal' }, errorType: 'InternalServerErrorException' };
    await expect(transcoder.start(videoJob)).rejects.toThrow();
    expect(updates).toEqual([]);
  });
});

describe('handleJobStateChange', () => {
  const key = (name: string) => `media/user-1/video-1/${name}`;
  const put = (name: string, body: string) => s3.send(new PutObjectCommand({ Bucket: bucket, Key: key(name), Body: body }));
  const text = async (name: string) => (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key(name) }))).Body!.transformToString();

  test('COMPLETE: reports the result with the stored size, and moves the thumbnail capture to thumb.jpg', async () => {
    await put('source', 'original');
    await put('stream.mp4', 'x'.repeat(4321));
    await put('thumb.0000000.jpg', 'first frame');
    await put('thumb.0000001.jpg', 'frame at 10 %');
    await transcoder.handleJobStateChange(
      jobEvent({
        status: 'COMPLETE',
        outputGroupDetails: [
          {
            type: 'FILE_GROUP',
            outputDetails: [
              { outputFilePaths: [`s3://${bucket}/${key('stream.mp4')}`], durationInMs: 5000, videoDetails: { widthInPx: 1920, heightInPx: 1080 } },
            ],
          },
          {
            type: 'FILE_GROUP',
            outputDetails: [
              { outputFilePaths: [`s3://${bucket}/${key('thumb.0000001.jpg')}`], durationInMs: 5000, videoDetails: { widthInPx: 1280, heightInPx: 720 } },
            ],
          },
        ],
      }),
    );

    expect(updates).toEqual([
      {
        type: 'completed',
        jobId: '1671477617078-2886ye',
        job: { userId: 'user-1', videoId: 'video-1', kind: 'video', revision: 0 },
        result: {
          kind: 'video',
          output: outputSettings('1080p30', 'low'),
          durationSeconds: 5,
          width: 1920,
          height: 1080,
          sizeBytes: 4321,
          outputKey: key('stream.mp4'),
          thumbnailKey: key('thumb.jpg'),
          thumbnailBytes: 'frame at 10 %'.length,
        },
      },
    ]);
    expect(await text('thumb.jpg')).toBe('frame at 10 %');
    expect((await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key('thumb.jpg') }))).ContentType).toBe('image/jpeg');
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'media/user-1/video-1/' }));
    expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([key('source'), key('stream.mp4'), key('thumb.jpg')]);
  });

  test('COMPLETE of an audio job', async () => {
    await put('stream.m4a', 'a'.repeat(999));
    await transcoder.handleJobStateChange(
      jobEvent({
        status: 'COMPLETE',
        userMetadata: { ...jobMetadata, kind: 'audio' },
        outputGroupDetails: [{ type: 'FILE_GROUP', outputDetails: [{ outputFilePaths: [`s3://${bucket}/${key('stream.m4a')}`], durationInMs: 181250 }] }],
      }),
    );
    expect(updates).toMatchObject([{ type: 'completed', result: { kind: 'audio', durationSeconds: 181.25, sizeBytes: 999, outputKey: key('stream.m4a') } }]);
  });

  test('STATUS_UPDATE becomes progress; ERROR of an unreadable input the encode error; other errors and CANCELED ours', async () => {
    await transcoder.handleJobStateChange(jobEvent({ status: 'STATUS_UPDATE', jobProgress: { jobPercentComplete: 42, currentPhase: 'TRANSCODING' } }));
    await transcoder.handleJobStateChange(jobEvent({ status: 'ERROR', errorCode: 1030, errorMessage: 'Unsupported codec' }));
    await transcoder.handleJobStateChange(jobEvent({ status: 'ERROR', errorCode: 1401, errorMessage: 'Access denied' }));
    await transcoder.handleJobStateChange(jobEvent({ status: 'CANCELED' }));
    expect(updates.map((u) => (u.type === 'progress' ? u.percent : u.type === 'failed' ? u.error : u.type))).toEqual([
      42,
      'uploader encode error',
      'internal error',
      'internal error',
    ]);
  });

  test("another application's job is ignored", async () => {
    await transcoder.handleJobStateChange(jobEvent({ status: 'COMPLETE', userMetadata: {} }));
    expect(updates).toEqual([]);
  });
});
