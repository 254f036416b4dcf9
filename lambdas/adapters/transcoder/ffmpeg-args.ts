// The media spec (lambdas/core/media-spec.ts) as ffmpeg command lines. Pure, so the exact arguments are tested;
// mediaconvert-job.ts says the same in MediaConvert's terms.
import { audioOutput, loopAudioSamples, thumbnailOutput, videoOutput, type StereoMix, type TranscodePlan } from '../../core/media-spec';

/**
 * The containers an upload may be (ffmpeg's demuxer names): what phones, cameras and editors write. A file is read
 * only as one of them and only from the local file (security audit M1): ffmpeg detects an HLS playlist by its
 * first line, and would follow its segments to any file of the server (or a concat list, an image2 pattern, an SDP
 * description to the network). Also given to ffprobe, so what is probed is what is transcoded.
 */
export const INPUT_FORMATS = [
  'mov',
  'mp4',
  'm4a',
  '3gp',
  '3g2',
  'mj2', // MP4, MOV, M4A, phone video
  'matroska',
  'webm',
  'avi',
  'mpegts',
  'mpeg',
  'flv',
  'asf', // MKV, WebM, AVI, TS, MPEG-PS, FLV, WMV
  'mp3',
  'wav',
  'flac',
  'ogg',
  'aac', // audio
] as const;

/** Before `-i`: only the file protocol, only INPUT_FORMATS. */
export const inputRestrictions = ['-protocol_whitelist', 'file', '-format_whitelist', INPUT_FORMATS.join(',')];

/** True when ffprobe's `format_name` (a demuxer's names, comma-separated) is one of INPUT_FORMATS. */
export const isAcceptedFormat = (formatName: string | undefined): boolean =>
  (formatName ?? '').split(',').some((name) => (INPUT_FORMATS as readonly string[]).includes(name));

export interface FfmpegTuning {
  /** x264 preset: the local stand-in trades compression efficiency for speed; format and bitrate do not change. */
  preset: string;
  /** Decoder and encoder threads. */
  threads: number;
}

export const defaultTuning: FfmpegTuning = { preset: 'veryfast', threads: 2 };

const kbit = (bitsPerSecond: number) => `${bitsPerSecond / 1000}k`;

/** `pan` filter mixing the source's channels to stereo with the spec's gains. */
export function panFilter(mix: StereoMix): string {
  const side = (gains: readonly number[]) =>
    gains
      .map((gain, channel) => (gain === 0 ? undefined : `${Number(gain.toFixed(6))}*c${channel}`))
      .filter(Boolean)
      .join('+');
  return `pan=stereo|c0=${side(mix[0])}|c1=${side(mix[1])}`;
}

/** Resample to 44.1 kHz; `async` fills timestamp gaps with silence so audio stays in sync with the picture. */
const resample = `aresample=${audioOutput.sampleRate}:async=1:first_pts=0`;

const audioEncoding = [
  '-c:a',
  'aac',
  '-profile:a',
  'aac_low',
  '-b:a',
  kbit(audioOutput.bitrate),
  '-ar',
  String(audioOutput.sampleRate),
  '-ac',
  String(audioOutput.channels),
];

/** Never copy the source's metadata (phone videos carry GPS positions) or chapters. */
const noMetadata = ['-map_metadata', '-1', '-map_chapters', '-1'];

export interface SourceStreams {
  video?: number;
  audio?: number;
}

/**
 * One ffmpeg run from the downloaded source to the stream-ready file. Progress goes to stdout
 * (`-progress pipe:1`), errors to stderr.
 */
export function transcodeArguments(plan: TranscodePlan, streams: SourceStreams, input: string, output: string, tuning: FfmpegTuning): string[] {
  const common = [
    '-nostdin',
    '-hide_banner',
    '-nostats',
    '-loglevel',
    'error',
    '-progress',
    'pipe:1',
    '-threads',
    String(tuning.threads),
    ...inputRestrictions,
    '-i',
    input,
  ];

  if (plan.kind === 'audio') {
    if (streams.audio === undefined) throw new Error('an audio plan needs an audio stream');
    return [
      ...common,
      '-map',
      `0:${streams.audio}`,
      '-af',
      `${resample},${panFilter(plan.audio.mix)}`,
      ...audioEncoding,
      ...noMetadata,
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '-y',
      output,
    ];
  }

  if (streams.video === undefined) throw new Error('a video plan needs a video stream');
  const { picture, frameCount, output: out } = plan;
  const video = [
    `[0:${streams.video}]`,
    // Deinterlace only frames flagged interlaced (MediaConvert: adaptive deinterlacer).
    'yadif=deint=interlaced,',
    `fps=${out.frameRate}:start_time=0,`,
    `scale=${picture.width}:${picture.height}:flags=bicubic:out_color_matrix=bt709:out_range=tv,`,
    `format=${videoOutput.pixelFormat},setsar=1,`,
    `pad=${out.width}:${out.height}:${picture.x}:${picture.y}:black,`,
    // Exactly frameCount frames: a source that ends a little early repeats its last picture.
    `tpad=stop=-1:stop_mode=clone,trim=end_frame=${frameCount}[v]`,
  ].join('');
  // Audio cut (or padded with silence) to whole AAC frames ending just inside the video: a copy loop is seamless.
  const audioSamples = loopAudioSamples(frameCount, out.frameRate);
  const audio =
    plan.audio === 'silence' || streams.audio === undefined
      ? `anullsrc=r=${audioOutput.sampleRate}:cl=stereo,atrim=end_sample=${audioSamples}[a]`
      : `[0:${streams.audio}]${resample},${panFilter(plan.audio.mix)},apad,atrim=end_sample=${audioSamples}[a]`;

  const gop = String(out.keyframeIntervalFrames);
  const bitrate = kbit(out.videoBitrate);
  return [
    ...common,
    '-filter_complex_threads',
    '1',
    '-filter_complex',
    `${video};${audio}`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-c:v',
    'libx264',
    '-preset',
    tuning.preset,
    '-profile:v',
    videoOutput.profile,
    '-level:v',
    out.level,
    '-pix_fmt',
    videoOutput.pixelFormat,
    '-b:v',
    bitrate,
    '-minrate',
    bitrate,
    '-maxrate',
    bitrate,
    '-bufsize',
    kbit(out.bufferBits),
    // Fixed GOP: an IDR frame every 2 s (60 or 120 frames) and nowhere else (scene cuts off), every GOP closed.
    '-g',
    gop,
    '-keyint_min',
    gop,
    '-sc_threshold',
    '0',
    '-bf',
    String(videoOutput.bFrames),
    '-x264-params',
    `open-gop=0:b-pyramid=none:nal-hrd=cbr:vbv-init=${videoOutput.bufferInitialFill}:force-cfr=1`,
    '-color_primaries',
    'bt709',
    '-color_trc',
    'bt709',
    '-colorspace',
    'bt709',
    '-threads',
    String(tuning.threads),
    ...audioEncoding,
    ...noMetadata,
    // moov before mdat: players (and ffmpeg's -re loop) start without seeking to the end of the file.
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-y',
    output,
  ];
}

/** The thumbnail, taken from the finished (already letterboxed 16:9) output, so it shows what the stream shows. */
export function thumbnailArguments(videoFile: string, atSeconds: number, output: string): string[] {
  return [
    '-nostdin',
    '-hide_banner',
    '-nostats',
    '-loglevel',
    'error',
    '-ss',
    atSeconds.toFixed(3),
    ...inputRestrictions,
    '-i',
    videoFile,
    '-frames:v',
    '1',
    '-vf',
    `scale=${thumbnailOutput.width}:${thumbnailOutput.height}`,
    // mjpeg's qscale 3 is about quality 80 on the 1-100 scale MediaConvert uses.
    '-q:v',
    '3',
    '-update',
    '1',
    '-f',
    'image2',
    '-y',
    output,
  ];
}

/**
 * Reads ffmpeg's `-progress` output (blocks of `key=value` lines, each ending with `progress=continue|end`) and
 * reports how much of the output duration is encoded.
 */
export class ProgressReader {
  private buffered = '';
  private outTimeSeconds = 0;

  constructor(
    private readonly durationSeconds: number,
    private readonly onPercent: (percent: number) => void,
  ) {}

  push(chunk: string): void {
    this.buffered += chunk;
    const lines = this.buffered.split('\n');
    this.buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [key, value] = line.trim().split('=', 2);
      if (key === 'out_time_us' && value !== undefined && /^\d+$/.test(value)) this.outTimeSeconds = Number(value) / 1e6;
      if (key === 'progress') this.onPercent(Math.min(100, Math.floor((this.outTimeSeconds / this.durationSeconds) * 100)));
    }
  }
}
