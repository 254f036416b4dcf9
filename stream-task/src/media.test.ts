import { describeInputs, type ProbedMedia } from './media';

const video: ProbedMedia = {
  durationUs: 6_000_000,
  bitRate: 2_200_000,
  streams: [
    { codecType: 'video', codecName: 'h264', bitRate: 2_000_000 },
    { codecType: 'audio', codecName: 'aac', bitRate: 128_000 },
  ],
};
const audio: ProbedMedia = { durationUs: 4_500_000, streams: [{ codecType: 'audio', codecName: 'aac', bitRate: 130_000 }] };

describe('inputs for stream copy', () => {
  test("loop length is the video's; the bitrate counts the streams that are sent", () => {
    expect(describeInputs(video)).toEqual({ loopDurationUs: 6_000_000, inputBitrateKbps: 2_128 });
    expect(describeInputs(video, audio)).toEqual({ loopDurationUs: 6_000_000, inputBitrateKbps: 2_130 });
    expect(describeInputs({ ...video, streams: [{ codecType: 'video', codecName: 'h264' }] })).toEqual({ loopDurationUs: 6_000_000, inputBitrateKbps: 2_200 });
  });

  test('a silent video streams without audio', () => {
    expect(describeInputs({ ...video, streams: [video.streams[0]!] }).loopDurationUs).toBe(6_000_000);
  });

  test('what FLV cannot carry by copy fails with a reason', () => {
    expect(() => describeInputs({ ...video, streams: [{ codecType: 'video', codecName: 'hevc' }] })).toThrow('the video is hevc, streaming needs H.264');
    expect(() => describeInputs({ ...video, streams: [video.streams[1]!] })).toThrow('the video file has no video stream');
    expect(() => describeInputs(video, { ...audio, streams: [{ codecType: 'audio', codecName: 'opus' }] })).toThrow(
      'the audio is opus, streaming needs AAC or MP3',
    );
    expect(() => describeInputs(video, { ...audio, streams: [] })).toThrow('the audio file has no audio stream');
    expect(() => describeInputs({ ...video, durationUs: 0 })).toThrow('the video has no duration');
  });
});
