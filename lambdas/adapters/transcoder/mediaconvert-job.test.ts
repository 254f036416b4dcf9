import { describe, expect, test } from '@jest/globals';
import { outputProfileIds, planTranscode, type QualityChoice, type SourceMedia, type TranscodePlan } from '../../core/media-spec';
import { createJobRequest, remixSettings } from './mediaconvert-job';
import { roomyLimits } from '../../../test/helpers/transcode-fixtures';
import type { TranscodeJob } from '../../core/media/transcoder';

const setup = {
  bucket: 'loopcast-prod-media',
  roleArn: 'arn:aws:iam::111122223333:role/Loopcast-prod-MediaConvert',
  queueArn: 'arn:aws:mediaconvert:eu-west-1:111122223333:queues/Loopcast-prod',
};

const job = (kind: TranscodeJob['kind']): TranscodeJob => ({
  userId: 'user-1',
  videoId: '01J9Z8Q4M2V7K3N5P6R8S0T1W2',
  kind,
  sourceKey: 'media/user-1/01J9Z8Q4M2V7K3N5P6R8S0T1W2/source',
  outputPrefix: 'media/user-1/01J9Z8Q4M2V7K3N5P6R8S0T1W2/',
  revision: 0,
  quality: { profile: '1080p30', tier: 'low' },
  limits: roomyLimits,
});

function planFor(kind: TranscodeJob['kind'], source: SourceMedia, quality: QualityChoice = { profile: '1080p30', tier: 'high' }): TranscodePlan {
  const planned = planTranscode(kind, source, { quality, allowed: outputProfileIds });
  if (!planned.ok) throw new Error(planned.reason);
  return planned.plan;
}

const prefix = 's3://loopcast-prod-media/media/user-1/01J9Z8Q4M2V7K3N5P6R8S0T1W2';

const aac = {
  CodecProfile: 'LC',
  CodingMode: 'CODING_MODE_2_0',
  RateControlMode: 'CBR',
  Bitrate: 128000,
  SampleRate: 44100,
  RawFormat: 'NONE',
  Specification: 'MPEG4',
};

const preprocessors = {
  ColorCorrector: { ColorSpaceConversion: 'FORCE_709' },
  Deinterlacer: { Algorithm: 'INTERPOLATE', Mode: 'ADAPTIVE', Control: 'NORMAL' },
};

describe('createJobRequest', () => {
  test('a 4:3 video with a stereo track at 1080p30 high: the exact stream-ready settings, plus the thumbnail capture at 10 %', () => {
    const plan = planFor('video', {
      durationSeconds: 70,
      video: { width: 1440, height: 1080, sampleAspectRatio: 1, rotation: 0, durationSeconds: 60 },
      audio: { channels: 2, durationSeconds: 70 },
    });
    expect(createJobRequest(job('video'), plan, setup)).toEqual({
      Role: setup.roleArn,
      Queue: setup.queueArn,
      ClientRequestToken: '01J9Z8Q4M2V7K3N5P6R8S0T1W2-r0',
      UserMetadata: {
        userId: 'user-1',
        videoId: '01J9Z8Q4M2V7K3N5P6R8S0T1W2',
        kind: 'video',
        outputPrefix: 'media/user-1/01J9Z8Q4M2V7K3N5P6R8S0T1W2/',
        revision: '0',
        profile: '1080p30',
        tier: 'high',
        limitedBy: '',
      },
      StatusUpdateInterval: 'SECONDS_10',
      Settings: {
        TimecodeConfig: { Source: 'ZEROBASED' },
        Inputs: [
          {
            FileInput: `${prefix}/source`,
            TimecodeSource: 'ZEROBASED',
            VideoSelector: { Rotate: 'AUTO' },
            AudioSelectors: { 'Audio Selector 1': { DefaultSelection: 'DEFAULT' } },
          },
        ],
        OutputGroups: [
          {
            Name: 'Stream',
            OutputGroupSettings: { Type: 'FILE_GROUP_SETTINGS', FileGroupSettings: { Destination: `${prefix}/stream` } },
            Outputs: [
              {
                Extension: 'mp4',
                ContainerSettings: {
                  Container: 'MP4',
                  Mp4Settings: { MoovPlacement: 'PROGRESSIVE_DOWNLOAD', AudioDuration: 'MATCH_VIDEO_DURATION', FreeSpaceBox: 'EXCLUDE' },
                },
                VideoDescription: {
                  Width: 1920,
                  Height: 1080,
                  ScalingBehavior: 'DEFAULT',
                  Sharpness: 50,
                  AfdSignaling: 'NONE',
                  RespondToAfd: 'NONE',
                  ColorMetadata: 'INSERT',
                  TimecodeInsertion: 'DISABLED',
                  VideoPreprocessors: preprocessors,
                  CodecSettings: {
                    Codec: 'H_264',
                    H264Settings: {
                      CodecProfile: 'HIGH',
                      CodecLevel: 'LEVEL_4_1',
                      RateControlMode: 'CBR',
                      Bitrate: 6000000,
                      HrdBufferSize: 12000000,
                      HrdBufferInitialFillPercentage: 90,
                      FramerateControl: 'SPECIFIED',
                      FramerateNumerator: 30,
                      FramerateDenominator: 1,
                      FramerateConversionAlgorithm: 'DUPLICATE_DROP',
                      GopSize: 2,
                      GopSizeUnits: 'SECONDS',
                      GopClosedCadence: 1,
                      SceneChangeDetect: 'DISABLED',
                      MinIInterval: 0,
                      NumberBFramesBetweenReferenceFrames: 2,
                      GopBReference: 'DISABLED',
                      InterlaceMode: 'PROGRESSIVE',
                      ParControl: 'SPECIFIED',
                      ParNumerator: 1,
                      ParDenominator: 1,
                      EntropyEncoding: 'CABAC',
                      QualityTuningLevel: 'SINGLE_PASS_HQ',
                    },
                  },
                },
                AudioDescriptions: [
                  {
                    AudioSourceName: 'Audio Selector 1',
                    CodecSettings: { Codec: 'AAC', AacSettings: aac },
                    RemixSettings: {
                      ChannelsIn: 2,
                      ChannelsOut: 2,
                      ChannelMapping: { OutputChannels: [{ InputChannelsFineTune: [0, -60] }, { InputChannelsFineTune: [-60, 0] }] },
                    },
                  },
                ],
              },
            ],
          },
          {
            Name: 'Thumbnail',
            OutputGroupSettings: { Type: 'FILE_GROUP_SETTINGS', FileGroupSettings: { Destination: `${prefix}/thumb` } },
            Outputs: [
              {
                Extension: 'jpg',
                ContainerSettings: { Container: 'RAW' },
                VideoDescription: {
                  Width: 1280,
                  Height: 720,
                  ScalingBehavior: 'DEFAULT',
                  VideoPreprocessors: preprocessors,
                  CodecSettings: {
                    Codec: 'FRAME_CAPTURE',
                    // 60 s video: the first capture at 0 s, the second (the thumbnail) 6 s later.
                    FrameCaptureSettings: { FramerateNumerator: 1000, FramerateDenominator: 6000, MaxCaptures: 2, Quality: 80 },
                  },
                },
              },
            ],
          },
        ],
      },
    });
  });

  test.each([
    [
      'a 720p60 source asked for 1080p60 low (720p has no 60 fps rung)',
      { width: 1280, height: 720, frameRate: 59.94 },
      { profile: '1080p60', tier: 'low' },
      [1280, 720, 'LEVEL_3_1', 3_000_000, 30, 'source size'],
    ],
    [
      'a 1080p60 source at 1080p60 medium',
      { width: 1920, height: 1080, frameRate: 60 },
      { profile: '1080p60', tier: 'medium' },
      [1920, 1080, 'LEVEL_4_2', 6_750_000, 60, ''],
    ],
    [
      'a 1440p30 source at 1440p60 low',
      { width: 2560, height: 1440, frameRate: 30 },
      { profile: '1440p60', tier: 'low' },
      [2560, 1440, 'LEVEL_5', 6_000_000, 30, 'source frame rate'],
    ],
    [
      'a 4K60 source at 2160p60 high',
      { width: 3840, height: 2160, frameRate: 60 },
      { profile: '2160p60', tier: 'high' },
      [3840, 2160, 'LEVEL_5_2', 40_000_000, 60, ''],
    ],
  ] as const)(
    '%s: size, level, bitrate, buffer, rate and a GOP of 2 s from the plan',
    (_name, picture, quality, [width, height, level, bitrate, rate, limitedBy]) => {
      const plan = planFor('video', { video: { ...picture, sampleAspectRatio: 1, rotation: 0, durationSeconds: 8 } }, quality);
      const request = createJobRequest({ ...job('video'), revision: 2 }, plan, setup);
      const description = request.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.VideoDescription;
      expect([description?.Width, description?.Height]).toEqual([width, height]);
      expect(description?.CodecSettings?.H264Settings).toMatchObject({
        CodecLevel: level,
        RateControlMode: 'CBR',
        Bitrate: bitrate,
        HrdBufferSize: 2 * bitrate,
        FramerateControl: 'SPECIFIED',
        FramerateNumerator: rate,
        FramerateDenominator: 1,
        FramerateConversionAlgorithm: 'DUPLICATE_DROP',
        GopSize: 2,
        GopSizeUnits: 'SECONDS',
        GopClosedCadence: 1,
        SceneChangeDetect: 'DISABLED',
      });
      expect(request.UserMetadata).toMatchObject({ revision: '2', limitedBy });
      expect(request.ClientRequestToken).toBe('01J9Z8Q4M2V7K3N5P6R8S0T1W2-r2');
    },
  );

  test('a video without sound has no audio selector, so MediaConvert inserts silence, and no remix', () => {
    const plan = planFor('video', { video: { width: 1280, height: 720, sampleAspectRatio: 1, rotation: 0, durationSeconds: 5 } });
    const request = createJobRequest(job('video'), plan, setup);
    expect(request.Settings?.Inputs?.[0]?.AudioSelectors).toBeUndefined();
    expect(request.Settings?.OutputGroups?.[0]?.Outputs?.[0]?.AudioDescriptions).toEqual([
      { AudioSourceName: 'Audio Selector 1', CodecSettings: { Codec: 'AAC', AacSettings: aac } },
    ]);
  });

  test('an audio item: one AAC-LC .m4a output, moov first, no video, no thumbnail, no status updates', () => {
    const plan = planFor('audio', { durationSeconds: 180, audio: { channels: 1 } });
    const request = createJobRequest(job('audio'), plan, setup);
    expect(request.StatusUpdateInterval).toBeUndefined();
    expect(request.UserMetadata).toEqual({
      userId: 'user-1',
      videoId: '01J9Z8Q4M2V7K3N5P6R8S0T1W2',
      kind: 'audio',
      outputPrefix: 'media/user-1/01J9Z8Q4M2V7K3N5P6R8S0T1W2/',
      revision: '0',
    });
    expect(request.Settings?.Inputs?.[0]?.AudioSelectors).toEqual({ 'Audio Selector 1': { DefaultSelection: 'DEFAULT' } });
    expect(request.Settings?.OutputGroups).toEqual([
      {
        Name: 'Audio',
        OutputGroupSettings: { Type: 'FILE_GROUP_SETTINGS', FileGroupSettings: { Destination: `${prefix}/stream` } },
        Outputs: [
          {
            Extension: 'm4a',
            ContainerSettings: { Container: 'MP4', Mp4Settings: { MoovPlacement: 'PROGRESSIVE_DOWNLOAD', FreeSpaceBox: 'EXCLUDE' } },
            AudioDescriptions: [
              {
                AudioSourceName: 'Audio Selector 1',
                CodecSettings: { Codec: 'AAC', AacSettings: aac },
                RemixSettings: {
                  ChannelsIn: 1,
                  ChannelsOut: 2,
                  ChannelMapping: { OutputChannels: [{ InputChannelsFineTune: [0] }, { InputChannelsFineTune: [0] }] },
                },
              },
            ],
          },
        ],
      },
    ]);
  });
});

describe('remixSettings', () => {
  test('5.1 to stereo in dB: fronts -7.656, centre and surrounds -10.666, LFE and the other side muted', () => {
    const planned = planTranscode(
      'audio',
      { durationSeconds: 10, audio: { channels: 6 } },
      { quality: { profile: '1080p30', tier: 'low' }, allowed: outputProfileIds },
    );
    if (!planned.ok || planned.plan.kind !== 'audio') throw new Error('not an audio plan');
    expect(remixSettings(planned.plan.audio.mix, 6)).toEqual({
      ChannelsIn: 6,
      ChannelsOut: 2,
      ChannelMapping: {
        OutputChannels: [
          { InputChannelsFineTune: [-7.656, -60, -10.666, -60, -10.666, -60] },
          { InputChannelsFineTune: [-60, -7.656, -10.666, -60, -60, -10.666] },
        ],
      },
    });
  });
});
