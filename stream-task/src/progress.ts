// ffmpeg's `-progress pipe:1` output: blocks of key=value lines, each closed by `progress=continue` (or
// `progress=end` when ffmpeg finishes). Values are "N/A" when unknown (total_size and bitrate with the tee
// muxer, speed in the first block).

export interface ProgressBlock {
  frame?: number;
  fps?: number;
  /** ffmpeg's average since the start of this run, in kbit/s. */
  bitrateKbps?: number;
  totalSizeBytes?: number;
  /** Output time in microseconds; it keeps growing across loops. */
  outTimeUs?: number;
  /** ffmpeg's average speed since the start of this run (1 = real time). */
  speed?: number;
  progress: 'continue' | 'end';
}

function numberOf(value: string | undefined, suffix = ''): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!trimmed.endsWith(suffix)) return undefined;
  const number = Number(trimmed.slice(0, trimmed.length - suffix.length));
  return trimmed === suffix || !Number.isFinite(number) ? undefined : number;
}

/** One block from its fields; keys we do not use (stream_0_0_q, dup_frames, out_time...) are ignored. */
export function progressBlockOf(fields: ReadonlyMap<string, string>): ProgressBlock {
  const block: ProgressBlock = { progress: fields.get('progress') === 'end' ? 'end' : 'continue' };
  const set = <K extends keyof ProgressBlock>(key: K, value: ProgressBlock[K] | undefined) => {
    if (value !== undefined) block[key] = value;
  };
  set('frame', numberOf(fields.get('frame')));
  set('fps', numberOf(fields.get('fps')));
  set('bitrateKbps', numberOf(fields.get('bitrate'), 'kbits/s'));
  set('totalSizeBytes', numberOf(fields.get('total_size')));
  // ffmpeg 5.1 also prints out_time_ms, which is microseconds too despite its name.
  set('outTimeUs', numberOf(fields.get('out_time_us')));
  set('speed', numberOf(fields.get('speed'), 'x'));
  return block;
}

/** Feeds lines in as they arrive; returns a block whenever one is complete. */
export class ProgressParser {
  private fields = new Map<string, string>();

  pushLine(line: string): ProgressBlock | undefined {
    const separator = line.indexOf('=');
    if (separator <= 0) return undefined;
    const key = line.slice(0, separator).trim();
    this.fields.set(key, line.slice(separator + 1).trim());
    if (key !== 'progress') return undefined;
    const block = progressBlockOf(this.fields);
    this.fields = new Map();
    return block;
  }
}

/** Whole loops of the input played so far in this run, from the output time and the input's duration. */
export function loopsPlayed(outTimeUs: number, loopDurationUs: number): number {
  if (loopDurationUs <= 0 || outTimeUs <= 0) return 0;
  return Math.floor(outTimeUs / loopDurationUs);
}
