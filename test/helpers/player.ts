// A player at an RTMP destination, for as long as a test or a soak wants: ffprobe reads the live stream packet by
// packet (as any player's demuxer does) and every packet is checked as it arrives: decode timestamps that go
// backwards (a player shows a glitch or stalls), gaps in the media timeline (a freeze a viewer sees), and stalls in
// arrival (the player's buffer drains). Used by the long-run API tests and `npm run bench:soak`.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { waitFor } from './wait';

export interface TrackFigures {
  packets: number;
  /** Packets whose DTS is not above the previous one's. */
  dtsRegressions: number;
  /** Jumps of the media timeline beyond one packet's duration plus this many ms (`gapThresholdMs`). */
  gaps: number;
  /** The largest step of the timeline, in seconds. */
  maxStepSeconds: number;
  /** Media seconds received (last DTS minus first). */
  mediaSeconds: number;
}

export interface PlayerFigures {
  video: TrackFigures;
  audio: TrackFigures;
  /** The longest time with no packet arriving, in seconds (a player's buffer covers a second or two). */
  longestSilenceSeconds: number;
  /** Wall-clock time of the first and the last packet (epoch ms), undefined while none arrived. */
  firstPacketAt?: number;
  lastPacketAt?: number;
}

const emptyTrack = (): TrackFigures => ({ packets: 0, dtsRegressions: 0, gaps: 0, maxStepSeconds: 0, mediaSeconds: 0 });

export class RtmpPlayer {
  private readonly child: ChildProcess;
  private readonly figures: PlayerFigures = { video: emptyTrack(), audio: emptyTrack(), longestSilenceSeconds: 0 };
  private readonly last = new Map<string, { dts: number; first: number }>();
  readonly ended: Promise<number | null>;

  /** Starts playing `url` now. `gapThresholdMs`: how far beyond one packet's duration a timeline step counts as a gap. */
  constructor(
    url: string,
    private readonly gapThresholdMs = 100,
  ) {
    // stdbuf: ffprobe's stdout is a pipe here, which libc would buffer in 4 KiB blocks and so bunch the arrivals.
    this.child = spawn(
      'stdbuf',
      ['-oL', 'ffprobe', '-v', 'error', '-rw_timeout', '15000000', '-show_entries', 'packet=codec_type,dts_time,duration_time', '-of', 'csv=p=0', url],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.packet(line, Date.now()));
    this.ended = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
  }

  /** The figures so far (a copy). */
  get snapshot(): PlayerFigures {
    return structuredClone(this.figures);
  }

  /** Resolves once video and audio have both arrived: a new player needs its own process, the RTMP handshake and a
   * key frame first, seconds when the machine is busy. */
  async receiving(timeoutMs = 30_000): Promise<void> {
    await waitFor(
      'media at a new player',
      () => this.snapshot,
      ({ video, audio }) => video.packets > 0 && audio.packets > 0,
      timeoutMs,
    );
  }

  stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.ended;
  }

  private packet(line: string, at: number): void {
    const [type, dtsText, durationText] = line.split(',');
    if (type !== 'video' && type !== 'audio') return;
    const dts = Number(dtsText);
    if (!Number.isFinite(dts)) return;
    const figures = this.figures;
    if (figures.lastPacketAt !== undefined) figures.longestSilenceSeconds = Math.max(figures.longestSilenceSeconds, (at - figures.lastPacketAt) / 1000);
    figures.firstPacketAt ??= at;
    figures.lastPacketAt = at;
    const track = figures[type];
    track.packets++;
    const previous = this.last.get(type);
    if (previous) {
      const step = dts - previous.dts;
      if (step <= 0) track.dtsRegressions++;
      track.maxStepSeconds = Math.max(track.maxStepSeconds, step);
      const duration = Number(durationText);
      if (step > (Number.isFinite(duration) ? duration : 0) + this.gapThresholdMs / 1000) track.gaps++;
      track.mediaSeconds = dts - previous.first;
    }
    this.last.set(type, { dts, first: previous?.first ?? dts });
  }
}

/** True when no media arrives at `url` within `seconds` (no publisher on the key, or one that sends nothing). */
export async function noMediaWithin(url: string, seconds: number): Promise<boolean> {
  const player = new RtmpPlayer(url);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const { video, audio } = player.snapshot;
  await player.stop();
  return video.packets + audio.packets === 0;
}
