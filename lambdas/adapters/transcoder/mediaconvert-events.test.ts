// Events shaped as EventBridge delivers them (the examples of the MediaConvert user guide, "Using EventBridge
// with MediaConvert", with our job's user metadata and output paths).
import { describe, expect, test } from '@jest/globals';
import { outputSettings } from '../../core/media-spec';
import { errorKeyForCode, parseJobStateChange } from './mediaconvert-events';
import { jobEvent, jobMetadata } from '../../../test/helpers/transcode-fixtures';

const job = {
  jobId: '1671477617078-2886ye',
  metadata: {
    userId: 'user-1',
    videoId: 'video-1',
    kind: 'video',
    outputPrefix: 'media/user-1/video-1/',
    revision: 0,
    output: outputSettings('1080p30', 'low'),
  },
};

describe('parseJobStateChange', () => {
  test('PROGRESSING: the job left the queue (0 %)', () => {
    expect(parseJobStateChange(jobEvent({ status: 'PROGRESSING' }))).toEqual({ ...job, status: 'PROGRESSING', percent: 0 });
  });

  test('STATUS_UPDATE: the job percent', () => {
    const event = jobEvent({
      status: 'STATUS_UPDATE',
      framesDecoded: 353,
      jobProgress: {
        phaseProgress: {
          PROBING: { status: 'COMPLETE', percentComplete: 100 },
          TRANSCODING: { status: 'PROGRESSING', percentComplete: 2 },
          UPLOADING: { status: 'PENDING', percentComplete: 0 },
        },
        jobPercentComplete: 7,
        currentPhase: 'TRANSCODING',
        retryCount: 0,
      },
    });
    expect(parseJobStateChange(event)).toEqual({ ...job, status: 'PROGRESSING', percent: 7 });
  });

  test('STATUS_UPDATE while probing, before any percent is known, counts as 0 %', () => {
    const event = jobEvent({ status: 'STATUS_UPDATE', jobProgress: { currentPhase: 'PROBING', retryCount: 0 } });
    expect(parseJobStateChange(event)).toEqual({ ...job, status: 'PROGRESSING', percent: 0 });
  });

  test('COMPLETE: every written file with its duration and picture size', () => {
    const event = jobEvent({
      status: 'COMPLETE',
      timestamp: 1671476832124,
      warnings: [{ code: 230001, count: 1 }],
      outputGroupDetails: [
        {
          outputDetails: [
            {
              outputFilePaths: ['s3://loopcast-prod-media/media/user-1/video-1/stream.mp4'],
              durationInMs: 30000,
              videoDetails: { widthInPx: 1920, heightInPx: 1080, averageBitrate: 6127000 },
            },
          ],
          type: 'FILE_GROUP',
        },
        {
          outputDetails: [
            {
              outputFilePaths: ['s3://loopcast-prod-media/media/user-1/video-1/thumb.0000001.jpg'],
              durationInMs: 30000,
              videoDetails: { widthInPx: 1280, heightInPx: 720 },
            },
          ],
          type: 'FILE_GROUP',
        },
      ],
      paddingInserted: 0,
      blackVideoDetected: 0,
    });
    expect(parseJobStateChange(event)).toEqual({
      ...job,
      status: 'COMPLETE',
      outputs: [
        { path: 's3://loopcast-prod-media/media/user-1/video-1/stream.mp4', durationMs: 30000, width: 1920, height: 1080 },
        { path: 's3://loopcast-prod-media/media/user-1/video-1/thumb.0000001.jpg', durationMs: 30000, width: 1280, height: 720 },
      ],
    });
  });

  test('COMPLETE of an audio-only job: no video details', () => {
    const event = jobEvent({
      status: 'COMPLETE',
      userMetadata: { ...jobMetadata, kind: 'audio' },
      outputGroupDetails: [{ outputDetails: [{ outputFilePaths: ['s3://b/media/user-1/video-1/stream.m4a'], durationInMs: 181234 }], type: 'FILE_GROUP' }],
    });
    expect(parseJobStateChange(event)).toMatchObject({
      status: 'COMPLETE',
      metadata: { kind: 'audio' },
      outputs: [{ path: 's3://b/media/user-1/video-1/stream.m4a', durationMs: 181234 }],
    });
  });

  test('ERROR: code and message', () => {
    const event = jobEvent({ status: 'ERROR', errorCode: 1010, errorMessage: 'Unable to open input file [s3://b/media/user-1/video-1/source]' });
    expect(parseJobStateChange(event)).toEqual({
      ...job,
      status: 'ERROR',
      errorCode: 1010,
      errorMessage: 'Unable to open input file [s3://b/media/user-1/video-1/source]',
    });
  });

  test('CANCELED', () => {
    expect(parseJobStateChange(jobEvent({ status: 'CANCELED' }))).toEqual({ ...job, status: 'CANCELED' });
  });

  test.each(['SUBMITTED', 'INPUT_INFORMATION', 'NEW_WARNING', 'QUEUE_HOP'])('%s changes nothing for the item', (status) => {
    expect(parseJobStateChange(jobEvent({ status }))).toBeUndefined();
  });

  test('the revision, and the output the plan chose with why it is below the request, come back from the metadata', () => {
    const event = jobEvent({
      status: 'PROGRESSING',
      userMetadata: { ...jobMetadata, revision: '3', profile: '2160p30', tier: 'medium', limitedBy: 'source frame rate,plan' },
    });
    expect(parseJobStateChange(event)?.metadata).toMatchObject({ revision: 3, output: outputSettings('2160p30', 'medium', ['source frame rate', 'plan']) });
  });

  test('a job created before revisions and profiles existed is revision 0 and 1080p30 at 6 Mbit/s (the only output then)', () => {
    const { revision: _r, profile: _p, tier: _t, limitedBy: _l, ...before } = jobMetadata;
    expect(parseJobStateChange(jobEvent({ status: 'PROGRESSING', userMetadata: before }))?.metadata).toMatchObject({
      revision: 0,
      output: { profile: '1080p30', videoBitrate: 6_000_000, limitedBy: [] },
    });
  });

  test("another application's job in the account is ignored", () => {
    expect(parseJobStateChange(jobEvent({ status: 'COMPLETE', userMetadata: { project: 'other' } }))).toBeUndefined();
    expect(parseJobStateChange(jobEvent({ status: 'ERROR', userMetadata: undefined, errorCode: 1010 }))).toBeUndefined();
  });

  test('an event that is not a MediaConvert job state change is refused loudly (a misrouted EventBridge rule)', () => {
    expect(() => parseJobStateChange({ ...jobEvent({ status: 'COMPLETE' }), source: 'aws.s3' })).toThrow();
    expect(() => parseJobStateChange({ ...jobEvent({ status: 'COMPLETE' }), detail: { status: 'COMPLETE' } })).toThrow();
  });
});

describe('errorKeyForCode', () => {
  test.each([1010, 1020, 1021, 1030, 1075, 1076, 1092])('%i is a source the user must replace', (code) => {
    expect(errorKeyForCode(code)).toBe('uploader encode error');
  });

  test.each([1040, 1050, 1401, 1404, 1432, 1999, 3457])('%i is our failure', (code) => {
    expect(errorKeyForCode(code)).toBe('internal error');
  });
});
