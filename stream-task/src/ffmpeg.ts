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

/**
 * Whom an RTMPS destination's certificate must be signed by. ffmpeg (GnuTLS in Debian's build) verifies the
 * certificate and that it names the host for every rtmps:// destination (`tls_verify`, off by default in ffmpeg):
 * against `caFile` when given (the local stack's test CA, locally only), else against the system's trust store
 * (the container's ca-certificates). A destination whose certificate does not verify is never published to.
 */
export interface TlsTrust {
  caFile?: string;
}

const isRtmps = (url: string) => /^rtmps:/i.test(url);

/** ffmpeg's token syntax (av_get_token), one level of it: a backslash protects the character after it. */
const escapeToken = (text: string, specials: string) => text.replace(new RegExp(`[\\\\'${specials.replace(/[\]\\^-]/g, '\\$&')}]`, 'g'), (c) => `\\${c}`);

/** Tee slave names use ffmpeg's token syntax: backslash escapes, quotes, and `|` between slaves. */
const escapeTeeUrl = (url: string) => escapeToken(url, '|[]');

/** The options of the protocols a destination's URL opens, as `key=value` pairs: for rtmps://, the TLS layer's
 * verification of the server. No `tcp_nodelay`: ffmpeg sends each RTMP chunk's header, its data and the next one's
 * one-byte header with separate writes, and Nagle's algorithm joins them into full TCP segments. Without it every
 * write left as its own segment: about 3 % more bytes on the wire at a 4096-byte chunk size, 10 % more at RTMP's
 * default 128 (`npm run bench:wire`), for a start some 150 ms faster. What a stream costs is its egress (docs/decisions.md). */
const protocolOptions = (url: string, trust: TlsTrust): [string, string][] =>
  isRtmps(url) ? [['tls_verify', '1'], ...(trust.caFile ? [['ca_file', trust.caFile] as [string, string]] : [])] : [];

/** The tcUrl ffmpeg would send to `url` itself (`rtmp://host:port/app`): connected to a relay, it is told the
 * destination's with `rtmp_tcurl`, as servers route by it. */
export function destinationTcUrl(url: string): string {
  const target = new URL(url);
  const app = target.pathname.split('/')[1] ?? '';
  return `${target.protocol}//${target.hostname}:${target.port || 1935}/${app}`;
}

/** Relay URLs by destination id: destinations published through a chunk-size relay (chunk-relay.ts). */
export type RelayUrls = ReadonlyMap<string, string>;

/** Where ffmpeg publishes a destination's stream and with which protocol options: the destination itself, or its
 * relay on loopback, told the destination's tcUrl and with `tcp_nodelay` (no egress is paid on loopback, and Nagle's
 * algorithm held each command of the RTMP connection there for a delayed acknowledgement: the relay's own
 * connection to the destination keeps it). */
function output(destination: Destination, trust: TlsTrust, relays: RelayUrls): { url: string; options: [string, string][] } {
  const relay = relays.get(destination.id);
  if (!relay) return { url: destination.url, options: protocolOptions(destination.url, trust) };
  return {
    url: relay,
    options: [
      ['rtmp_tcurl', destinationTcUrl(destination.url)],
      ['tcp_nodelay', '1'],
    ],
  };
}

export function ffmpegArgs(inputs: FfmpegInputs, destinations: readonly Destination[], trust: TlsTrust = {}, relays: RelayUrls = new Map()): string[] {
  if (!destinations.length) throw new Error('at least one destination is needed');
  const loopedInput = (path: string) => ['-re', '-stream_loop', '-1', '-i', path];
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'warning', '-nostats', '-progress', 'pipe:1'];
  // -nostdin only stops ffmpeg reading keys from stdin: pipe:0 is still its input.
  if (isFeed(inputs)) args.push('-re', '-f', 'flv', '-i', 'pipe:0', '-map', '0:v:0', '-map', '0:a:0?');
  else if (inputs.audioPath) args.push(...loopedInput(inputs.videoPath), ...loopedInput(inputs.audioPath), '-map', '0:v:0', '-map', '1:a:0');
  else args.push(...loopedInput(inputs.videoPath), '-map', '0:v:0', '-map', '0:a:0?');
  args.push('-c', 'copy', '-rw_timeout', RW_TIMEOUT_US);
  if (destinations.length === 1) {
    const { url, options } = output(destinations[0]!, trust, relays);
    // Output options before the URL reach the protocols it opens (rtmp -> tcp, rtmps -> tls -> tcp). The TLS ones
    // only for rtmps: an option no protocol takes fails the output.
    const protocol = options.flatMap(([key, value]) => [`-${key}`, value]);
    return [...args, ...protocol, '-flvflags', 'no_duration_filesize', '-f', 'flv', url];
  }
  // The tee muxer has no codec tag table, so ffmpeg would pass the MP4 tags (avc1, mp4a) on and each FLV slave
  // would refuse them; 7 and 10 are FLV's tags for H.264 and AAC. onfail=ignore: a failing destination is
  // dropped and the others go on (ffmpeg exits only when all have failed). use_fifo: each destination is written
  // by its own thread from its own queue, so one that stops accepting data fills its queue instead of blocking
  // the others (TEE_FIFO_OPTIONS).
  const slaves = destinations.map((d) => {
    const { url, options } = output(d, trust, relays);
    return `[${escapeToken(teeSlaveOptions(options), '|')}]${escapeTeeUrl(url)}`;
  });
  return [...args, '-tag:v', '7', '-tag:a', '10', '-f', 'tee', slaves.join('|')];
}

/** Packets a destination's queue holds: about 5 s of 30 fps video with 44.1 kHz AAC (30 + 43 packets a second). */
export const TEE_QUEUE_PACKETS = 360;

/**
 * The options of one tee destination, as the slave's `[...]` list reads them (before the tee's own escaping).
 * The fifo muxer's: a full queue drops packets rather than blocking ffmpeg (the supervisor then restarts the run
 * without that destination, see teeQueueFull). No attempt_recovery: a failing destination is still dropped by the
 * tee, reported, and retried by the supervisor with its backoff. The slave's other options (flvflags and the
 * protocol options) are not the tee's: it hands them to the fifo as the `format_opts` the fifo opens its output and
 * writes its header with, so the protocols under the URL get them (a global -tls_verify would be ignored by the
 * tee, and a `format_opts` of our own in fifo_options replaced by the tee). The fifo's option list
 * is a value of the slave's, so it is escaped for it; a value ends at an unescaped ':' or ']'.
 */
function teeSlaveOptions(protocol: [string, string][]): string {
  const fifoOptions = ['drop_pkts_on_overflow=1', `queue_size=${TEE_QUEUE_PACKETS}`].join(':');
  const options: [string, string][] = [
    ['f', 'flv'],
    ['onfail', 'ignore'],
    ['flvflags', 'no_duration_filesize'],
    ...protocol,
    ['use_fifo', '1'],
    ['fifo_options', fifoOptions],
  ];
  return options.map(([key, value]) => `${key}=${escapeToken(value, ':]')}`).join(':');
}

/** What ffmpeg will do at a destination that declares `size` as its RTMP chunk size (null: declares none;
 * undefined: could not be asked), as a log line and its level. ffmpeg sends in the server's chunk size and has no
 * option of its own; below 4096 it writes more and smaller pieces (bench:wire: 7x the CPU at 128, and over RTMPS
 * 1.35x the bytes, a TLS record per piece), unless the destination is `relayed` (chunk-relay.ts: plain RTMP). */
export function chunkSizeReport(destinationId: string, size: number | null | undefined, relayed = false): { text: string; level: 'info' | 'warn' } {
  if (size === undefined) return { text: `destination ${destinationId}: its RTMP chunk size could not be asked`, level: 'info' };
  const declared = size === null ? 'declares no RTMP chunk size' : `declares RTMP chunk size ${size}`;
  if ((size ?? 128) >= 4096) return { text: `destination ${destinationId} ${declared}`, level: 'info' };
  if (relayed) return { text: `destination ${destinationId} ${declared}: published through a relay that has ffmpeg send it 4096-byte chunks`, level: 'info' };
  return {
    text: `destination ${destinationId} ${declared}: ffmpeg sends it ${size ?? 128}-byte chunks, several times the CPU of 4096 and over RTMPS a third more bytes (docs/decisions.md)`,
    level: 'warn',
  };
}

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
