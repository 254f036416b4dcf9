// The one ffmpeg command we run, and what we read from its stderr. Stream copy only: the input was transcoded
// once to a stream-ready file (H.264 + AAC, 2 s closed GOPs), re-encoding here would cost 100x the CPU.

export interface Destination {
  id: string;
  /** Full RTMP(S) publish URL including the stream key: a secret, never logged (see redactSecrets). */
  url: string;
}

/** One video looped by ffmpeg itself (`-stream_loop -1`). */
export interface LoopedFiles {
  videoPath: string;
  /** A separate audio track, looped on its own; the video file's own audio is then not used. */
  audioPath?: string;
}

/** A playlist: one endless FLV written into ffmpeg's stdin by the feeder (feeder.ts), soundtrack included. */
export interface FlvFeed {
  feed: 'stdin';
}

export type FfmpegInputs = LoopedFiles | FlvFeed;

export const isFeed = (inputs: FfmpegInputs): inputs is FlvFeed => 'feed' in inputs;

/** Read/write timeout for the RTMP connection: a backstop for the stall detection, in microseconds. */
const RW_TIMEOUT_US = '5000000';

/** Tee slave names use ffmpeg's token syntax: backslash escapes, quotes, and `|` between slaves. */
const escapeTeeUrl = (url: string) => url.replace(/[\\'|[\]]/g, (c) => `\\${c}`);

export function ffmpegArgs(inputs: FfmpegInputs, destinations: readonly Destination[]): string[] {
  if (!destinations.length) throw new Error('at least one destination is needed');
  const loopedInput = (path: string) => ['-re', '-stream_loop', '-1', '-i', path];
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'warning', '-nostats', '-progress', 'pipe:1'];
  // -nostdin only stops ffmpeg reading keys from stdin: pipe:0 is still its input.
  if (isFeed(inputs)) args.push('-re', '-f', 'flv', '-i', 'pipe:0', '-map', '0:v:0', '-map', '0:a:0?');
  else if (inputs.audioPath) args.push(...loopedInput(inputs.videoPath), ...loopedInput(inputs.audioPath), '-map', '0:v:0', '-map', '1:a:0');
  else args.push(...loopedInput(inputs.videoPath), '-map', '0:v:0', '-map', '0:a:0?');
  args.push('-c', 'copy', '-rw_timeout', RW_TIMEOUT_US);
  if (destinations.length === 1) {
    return [...args, '-flvflags', 'no_duration_filesize', '-f', 'flv', destinations[0]!.url];
  }
  // The tee muxer has no codec tag table, so ffmpeg would pass the MP4 tags (avc1, mp4a) on and each FLV slave
  // would refuse them; 7 and 10 are FLV's tags for H.264 and AAC. onfail=ignore: a failing destination is
  // dropped and the others go on (ffmpeg exits only when all have failed). use_fifo: each destination is written
  // by its own thread from its own queue, so one that stops accepting data fills its queue instead of blocking
  // the others (TEE_FIFO_OPTIONS).
  const slaves = destinations.map((d) => `[f=flv:onfail=ignore:flvflags=no_duration_filesize:use_fifo=1:fifo_options=${TEE_FIFO_OPTIONS}]${escapeTeeUrl(d.url)}`);
  return [...args, '-tag:v', '7', '-tag:a', '10', '-f', 'tee', slaves.join('|')];
}

/** Packets a destination's queue holds: about 5 s of 30 fps video with 44.1 kHz AAC (30 + 43 packets a second). */
export const TEE_QUEUE_PACKETS = 360;

/**
 * The fifo muxer's options for each tee destination. A full queue drops packets rather than blocking ffmpeg (the
 * supervisor then restarts the run without that destination, see teeQueueFull). No attempt_recovery: a failing
 * destination is still dropped by the tee, reported, and retried by the supervisor with its backoff. The `:`
 * between options is escaped twice: once for the slave's option list, once more for the list of slaves.
 */
const TEE_FIFO_OPTIONS = ['drop_pkts_on_overflow=1', `queue_size=${TEE_QUEUE_PACKETS}`].join('\\\\\\:');

/** "[tee @ 0x55d0c3a4e5c0] Slave muxer #1 failed: Connection refused, continuing with 1/2 slaves." */
const SLAVE_FAILED = /Slave muxer #(\d+) failed: (.*?), continuing with \d+\/\d+ slaves/;

/** The index and reason when a stderr line says one tee destination failed and was dropped. */
export function teeSlaveFailure(line: string): { index: number; reason: string } | undefined {
  const match = SLAVE_FAILED.exec(line);
  return match ? { index: Number(match[1]), reason: match[2]! } : undefined;
}

/** "[fifo @ 0x55d0c3a4e5c0] FIFO queue full": a tee destination has not taken any data for as long as its queue
 * holds (after its socket buffers filled), while the others went on. Which one is not said. */
export const teeQueueFull = (line: string): boolean => /^(?:\[fifo @ 0x[0-9a-f]+\]\s*)?FIFO queue full$/i.test(line.trim());

/** Stream keys follow the application name in an RTMP URL (rtmp://host/app/KEY, or a query string); whatever
 * follows the application is replaced wherever a URL appears in a text. */
export function redactSecrets(text: string): string {
  return text.replace(/rtmps?:\/\/[^\s'"|\]]+?(?=[:.,;]*(?:[\s'"|\]]|$))/gi, (url) => {
    const match = /^(rtmps?:\/\/[^/?]+\/[^/?]*)([/?]?)(.*)$/i.exec(url);
    return match && match[3] ? `${match[1]}${match[2]}***` : url;
  });
}

/** A stderr line as the user may see it: without the "[flv @ 0x...]" prefix and without stream keys. */
export function cleanStderrLine(line: string): string {
  return redactSecrets(line.replace(/^\[[^\]]+ @ 0x[0-9a-f]+\]\s*/i, '').trim());
}
