import { describe, expect, test } from '@jest/globals';
import { outputSettings, stereoMix, type VideoPlan } from '../../core/media-spec';
import { panFilter, ProgressReader, transcodeArguments } from './ffmpeg-args';

const plan: VideoPlan = {
  kind: 'video',
  output: outputSettings('1080p30', 'high'),
  frameCount: 150,
  durationSeconds: 5,
  picture: { width: 1440, height: 1080, x: 240, y: 0 },
  audio: { mix: stereoMix(1), channels: 1 },
  thumbnailAtSeconds: 0.5,
};

const valueAfter = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('transcodeArguments', () => {
  const args = transcodeArguments(plan, { video: 0, audio: 1 }, 'in', 'out.mp4', { preset: 'veryfast', threads: 2 });

  test('encodes H.264 High 4.1 yuv420p at constant 6 Mbit/s with a fixed, closed 60-frame GOP', () => {
    expect(
      Object.fromEntries(
        ['-c:v', '-profile:v', '-level:v', '-pix_fmt', '-b:v', '-minrate', '-maxrate', '-bufsize', '-g', '-keyint_min', '-sc_threshold', '-bf'].map((f) => [
          f,
          valueAfter(args, f),
        ]),
      ),
    ).toEqual({
      '-c:v': 'libx264',
      '-profile:v': 'high',
      '-level:v': '4.1',
      '-pix_fmt': 'yuv420p',
      '-b:v': '6000k',
      '-minrate': '6000k',
      '-maxrate': '6000k',
      '-bufsize': '12000k',
      '-g': '60',
      '-keyint_min': '60',
      '-sc_threshold': '0',
      '-bf': '2',
    });
    expect(valueAfter(args, '-x264-params')).toBe('open-gop=0:b-pyramid=none:nal-hrd=cbr:vbv-init=0.9:force-cfr=1');
  });

  test('scales, pads, fixes 30 fps, cuts video to 150 frames and audio to the whole AAC frames inside them (219136 samples + priming)', () => {
    const graph = valueAfter(args, '-filter_complex')!;
    expect(graph).toContain('fps=30:start_time=0,scale=1440:1080:');
    expect(graph).toContain('pad=1920:1080:240:0:black');
    expect(graph).toContain('trim=end_frame=150[v]');
    expect(graph).toContain('[0:1]aresample=44100:async=1:first_pts=0,pan=stereo|c0=1*c0|c1=1*c0,apad,atrim=end_sample=219136[a]');
  });

  test('AAC-LC 128k 44.1 kHz stereo, faststart, no source metadata, progress on stdout', () => {
    expect([valueAfter(args, '-c:a'), valueAfter(args, '-profile:a'), valueAfter(args, '-b:a'), valueAfter(args, '-ar'), valueAfter(args, '-ac')]).toEqual([
      'aac',
      'aac_low',
      '128k',
      '44100',
      '2',
    ]);
    expect(valueAfter(args, '-movflags')).toBe('+faststart');
    expect(valueAfter(args, '-map_metadata')).toBe('-1');
    expect(valueAfter(args, '-progress')).toBe('pipe:1');
  });

  test('1080p60 at the low tier: level 4.2, 4.5 Mbit/s, a 120-frame GOP, 60 fps, and the audio inside 300 frames of 735 samples', () => {
    const at60 = transcodeArguments({ ...plan, output: outputSettings('1080p60', 'low'), frameCount: 300 }, { video: 0, audio: 1 }, 'in', 'out.mp4', {
      preset: 'veryfast',
      threads: 2,
    });
    expect(['-level:v', '-b:v', '-minrate', '-maxrate', '-bufsize', '-g', '-keyint_min'].map((f) => valueAfter(at60, f))).toEqual([
      '4.2',
      '4500k',
      '4500k',
      '4500k',
      '9000k',
      '120',
      '120',
    ]);
    const graph = valueAfter(at60, '-filter_complex')!;
    expect(graph).toContain('fps=60:start_time=0,');
    expect(graph).toContain('trim=end_frame=300[v]');
    expect(graph).toContain('atrim=end_sample=219136[a]');
  });

  test('2160p30 pads to 3840x2160 at level 5.1', () => {
    const uhd = transcodeArguments(
      { ...plan, output: outputSettings('2160p30', 'medium'), picture: { width: 2880, height: 2160, x: 480, y: 0 } },
      { video: 0 },
      'in',
      'out.mp4',
      { preset: 'veryfast', threads: 2 },
    );
    expect(valueAfter(uhd, '-filter_complex')).toContain('pad=3840:2160:480:0:black,');
    expect([valueAfter(uhd, '-level:v'), valueAfter(uhd, '-b:v')]).toEqual(['5.1', '19500k']);
  });

  test('a source without audio gets generated silence of the same length', () => {
    const silent = transcodeArguments({ ...plan, audio: 'silence' }, { video: 0 }, 'in', 'out.mp4', { preset: 'veryfast', threads: 1 });
    expect(valueAfter(silent, '-filter_complex')).toContain(';anullsrc=r=44100:cl=stereo,atrim=end_sample=219136[a]');
  });
});

describe('panFilter', () => {
  test('writes only the channels that contribute', () => {
    expect(panFilter(stereoMix(2))).toBe('pan=stereo|c0=1*c0|c1=1*c1');
    expect(panFilter(stereoMix(6))).toBe('pan=stereo|c0=0.414214*c0+0.292893*c2+0.292893*c4|c1=0.414214*c1+0.292893*c2+0.292893*c5');
  });
});

describe('ProgressReader', () => {
  test('reports the share of the duration encoded at the end of each block, across split chunks', () => {
    const percents: number[] = [];
    const reader = new ProgressReader(10, (percent) => percents.push(percent));
    reader.push('frame=30\nout_time_us=2500000\nout_time=00:00:02.500000\nprogr');
    reader.push('ess=continue\nframe=60\nout_time_us=N/A\nprogress=continue\n');
    reader.push('out_time_us=10000000\nprogress=end\n');
    expect(percents).toEqual([25, 25, 100]);
  });
});
