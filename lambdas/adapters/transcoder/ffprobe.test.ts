import { describe, expect, test } from '@jest/globals';
import { selectedStreams, sourceFromFfprobe, type FfprobeOutput } from './ffprobe';

describe('sourceFromFfprobe', () => {
  test('Matroska: track lengths from DURATION tags (end time minus start time), the container is the longest', () => {
    const output: FfprobeOutput = {
      format: { duration: '7.021000', format_name: 'matroska,webm' },
      streams: [
        {
          index: 0,
          codec_type: 'video',
          width: 640,
          height: 480,
          sample_aspect_ratio: '1:1',
          start_time: '0.021000',
          tags: { DURATION: '00:00:05.021000000' },
        },
        { index: 1, codec_type: 'audio', channels: 1, start_time: '0.000000', tags: { DURATION: '00:00:07.021000000' } },
      ],
    };
    const source = sourceFromFfprobe(output);
    expect(source).toEqual({
      durationSeconds: 7.021,
      video: { width: 640, height: 480, sampleAspectRatio: 1, rotation: 0, durationSeconds: expect.any(Number) },
      audio: { channels: 1, durationSeconds: 7.021 },
    });
    expect(source.video?.durationSeconds).toBeCloseTo(5, 6);
  });

  test('MP4 from a phone: rotation from the display matrix, anamorphic SAR, stream durations', () => {
    const source = sourceFromFfprobe({
      format: { duration: '3.0' },
      streams: [
        { index: 0, codec_type: 'video', width: 1920, height: 1080, sample_aspect_ratio: '4:3', duration: '3.000000', side_data_list: [{ rotation: -90 }] },
      ],
    });
    expect(source.video).toEqual({ width: 1920, height: 1080, sampleAspectRatio: 4 / 3, rotation: -90, durationSeconds: 3 });
    expect(source.audio).toBeUndefined();
  });

  test('the frame rate: the average (a variable-rate phone video has a nominal one), else the base rate, never 0/0', () => {
    const rateOf = (stream: { avg_frame_rate?: string; r_frame_rate?: string }) =>
      sourceFromFfprobe({ format: { duration: '2' }, streams: [{ index: 0, codec_type: 'video', width: 1920, height: 1080, ...stream }] }).video?.frameRate;
    expect(rateOf({ avg_frame_rate: '30000/1001', r_frame_rate: '30000/1001' })).toBeCloseTo(29.97, 2);
    expect(rateOf({ avg_frame_rate: '5994/100', r_frame_rate: '90000/1' })).toBeCloseTo(59.94, 2);
    expect(rateOf({ avg_frame_rate: '0/0', r_frame_rate: '50/1' })).toBe(50);
    expect(rateOf({ avg_frame_rate: '0/0', r_frame_rate: '0/0' })).toBeUndefined();
  });

  test('cover art of an MP3 is not a video; the audio stream is mapped by its index', () => {
    const output: FfprobeOutput = {
      format: { duration: '180.5' },
      streams: [
        { index: 0, codec_type: 'audio', channels: 2, duration: '180.5' },
        { index: 1, codec_type: 'video', width: 500, height: 500, disposition: { attached_pic: 1 } },
      ],
    };
    expect(sourceFromFfprobe(output)).toEqual({ durationSeconds: 180.5, audio: { channels: 2, durationSeconds: 180.5 } });
    expect(selectedStreams(output)).toEqual({ audio: 0 });
  });

  test('unknown sample aspect ratio (0:1) counts as square pixels', () => {
    const source = sourceFromFfprobe({ streams: [{ index: 3, codec_type: 'video', width: 320, height: 240, sample_aspect_ratio: '0:1' }] });
    expect(source.video?.sampleAspectRatio).toBe(1);
  });
});
