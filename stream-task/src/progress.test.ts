import { loopsPlayed, ProgressParser, progressBlockOf } from './progress';

// Verbatim from ffmpeg 5.1 (-progress pipe:1): a first block before any output, and one with the tee muxer.
const firstBlock = `frame=1
fps=0.00
stream_0_0_q=-1.0
bitrate=N/A
total_size=487
out_time_us=0
out_time_ms=0
out_time=00:00:00.000000
dup_frames=0
drop_frames=0
speed=N/A
progress=continue`;
const runningBlock = `frame=33
fps=32.58
stream_0_0_q=-1.0
bitrate=2220.1kbits/s
total_size=289995
out_time_us=1045000
out_time_ms=1045000
out_time=00:00:01.045000
dup_frames=0
drop_frames=0
speed=1.03x
progress=continue`;
const teeEndBlock = `frame=120
fps=32.03
stream_0_0_q=-1.0
bitrate=N/A
total_size=N/A
out_time_us=3947392
out_time_ms=3947392
out_time=00:00:03.947392
dup_frames=0
drop_frames=0
speed=1.05x
progress=end`;

const feed = (parser: ProgressParser, text: string) =>
  text
    .split('\n')
    .map((line) => parser.pushLine(line))
    .filter(Boolean);

describe('progress parser', () => {
  test('emits one block per "progress=" line, with N/A values left out', () => {
    const parser = new ProgressParser();
    expect(feed(parser, `${firstBlock}\n${runningBlock}\n${teeEndBlock}`)).toEqual([
      { frame: 1, fps: 0, totalSizeBytes: 487, outTimeUs: 0, progress: 'continue' },
      { frame: 33, fps: 32.58, bitrateKbps: 2220.1, totalSizeBytes: 289995, outTimeUs: 1_045_000, speed: 1.03, progress: 'continue' },
      { frame: 120, fps: 32.03, outTimeUs: 3_947_392, speed: 1.05, progress: 'end' },
    ]);
  });

  test('nothing is emitted before a block is complete, and fields do not leak into the next block', () => {
    const parser = new ProgressParser();
    const lines = runningBlock.split('\n');
    for (const line of lines.slice(0, -1)) expect(parser.pushLine(line)).toBeUndefined();
    expect(parser.pushLine(lines.at(-1)!)).toMatchObject({ frame: 33 });
    expect(parser.pushLine('out_time_us=2000000')).toBeUndefined();
    expect(parser.pushLine('progress=continue')).toEqual({ outTimeUs: 2_000_000, progress: 'continue' });
  });

  test('stray lines and odd values are ignored', () => {
    const parser = new ProgressParser();
    expect(parser.pushLine('')).toBeUndefined();
    expect(parser.pushLine('garbage without separator')).toBeUndefined();
    expect(parser.pushLine('=value')).toBeUndefined();
    expect(
      progressBlockOf(
        new Map([
          ['speed', '   1.5x'],
          ['bitrate', '12kbit/s'],
          ['frame', ''],
          ['out_time_us', '-9'],
          ['progress', 'continue'],
        ]),
      ),
    ).toEqual({
      speed: 1.5,
      outTimeUs: -9,
      progress: 'continue',
    });
  });
});

describe('loop counting', () => {
  test('whole loops of the input from the output time', () => {
    expect(loopsPlayed(0, 6_000_000)).toBe(0);
    expect(loopsPlayed(5_999_999, 6_000_000)).toBe(0);
    expect(loopsPlayed(6_000_000, 6_000_000)).toBe(1);
    expect(loopsPlayed(86_400_000_000, 6_000_000)).toBe(14_400);
    expect(loopsPlayed(-40_000, 6_000_000)).toBe(0);
    expect(loopsPlayed(10_000_000, 0)).toBe(0);
  });
});
