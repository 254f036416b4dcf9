// A playlist while it plays: the items in the order of this pass, the next pass's order (shuffled afresh), and the
// creator's latest edit waiting for its moment (the next join, or the next ffmpeg run). Shared by the runs of one
// task: a new ffmpeg run (a restart) starts the item that was playing from its beginning, or the edit's first item.
// The feeder (feeder.ts) asks it which item comes next; the task's heartbeat reports where it is (status()).
import { passOrder } from './playlist-order';

/** How ffmpeg can copy an item: every item of a playlist must have the same (playlist-media.ts, sameProfile). */
export interface StreamProfile {
  videoCodec: string;
  width: number;
  height: number;
  /** As ffprobe gives it: "30/1", "30000/1001". */
  frameRate: string;
  pixelFormat: string;
  /** The item's own sound; absent when a soundtrack replaces it. */
  audio?: { codec: string; sampleRate: number; channels: number };
}

/** One item, ready to be fed: its stream-ready video remuxed into FLV once. */
export interface PlaylistItem {
  /** The library item's id (the video's), as the spec names it. */
  id: string;
  /** The FLV file. */
  path: string;
  durationUs: number;
  /** Timestamp of the first video frame in the FLV, in ms: where the item's picture starts. */
  firstVideoMs: number;
  profile: StreamProfile;
  bitrateKbps: number;
}

export interface PlaylistContent {
  /** The stream's playlist revision this is (0 when the spec named none). */
  revision: number;
  shuffle: boolean;
  items: readonly PlaylistItem[];
}

/** When an edit takes effect: at the next join (seamless), or when ffmpeg is next started (a restart). */
export type ApplyAt = 'join' | 'restart';

export interface PlaylistStatus {
  /** The newest revision the task has (playing, or waiting for its moment). */
  revision: number;
  /** The revision playing now. */
  applied: number;
  /** The item playing now. */
  videoId: string;
}

export interface PlaylistEvents {
  /** A pass begins, with its order (item ids). */
  onPass?(ids: readonly string[], pass: number): void;
  /** Items no longer in the playlist (after an edit took effect): their files can go. */
  onRetired?(items: readonly PlaylistItem[]): void;
}

export class PlaylistRuntime {
  private content: PlaylistContent;
  private pending?: { content: PlaylistContent; applyAt: ApplyAt };
  private order: number[] = [];
  private index = 0;
  private passes = 0;
  /** When the feeder began writing the current item (epoch ms). */
  private currentSince?: number;

  constructor(
    content: PlaylistContent,
    private readonly random: () => number = Math.random,
    private readonly events: PlaylistEvents = {},
  ) {
    if (!content.items.length) throw new Error('a playlist needs at least one item');
    this.content = content;
    this.startPass();
  }

  /** The item to play now. */
  current(): PlaylistItem {
    return this.content.items[this.order[this.index]!]!;
  }

  /** The feeder began writing the current item. */
  began(now: number): void {
    this.currentSince = now;
  }

  /** The item playing and how far into it (for preview frames). */
  position(now: number): { path: string; seconds: number } {
    return { path: this.current().path, seconds: this.currentSince === undefined ? 0 : Math.max(0, now - this.currentSince) / 1000 };
  }

  /** The current item has ended: the next one. An edit waiting for the next join takes effect here, from its
   * first item (or its first pass's shuffled order). */
  advance(): PlaylistItem {
    if (this.pending?.applyAt === 'join') {
      this.apply();
      return this.current();
    }
    this.index += 1;
    if (this.index >= this.order.length) this.startPass();
    return this.current();
  }

  /** A new ffmpeg run begins: any waiting edit takes effect now; otherwise the item that was playing starts again. */
  restart(): void {
    if (this.pending) this.apply();
  }

  /** The creator edited the playlist; an older revision than the one held is ignored. */
  update(content: PlaylistContent, applyAt: ApplyAt): void {
    if (!content.items.length) throw new Error('a playlist needs at least one item');
    if (content.revision <= (this.pending?.content.revision ?? this.content.revision)) return;
    const replaced = this.pending?.content;
    this.pending = { content, applyAt };
    if (replaced) this.retire(replaced, [this.content, content]);
  }

  status(): PlaylistStatus {
    return { revision: this.pending?.content.revision ?? this.content.revision, applied: this.content.revision, videoId: this.current().id };
  }

  /** Every item the playlist may still play (the current content and a waiting edit). */
  items(): PlaylistItem[] {
    return [...this.content.items, ...(this.pending?.content.items ?? [])];
  }

  /** One pass of the current content, in microseconds (every pass is as long, whatever its order). */
  get passDurationUs(): number {
    return this.content.items.reduce((sum, item) => sum + item.durationUs, 0);
  }

  private apply(): void {
    const old = this.content;
    this.content = this.pending!.content;
    this.pending = undefined;
    this.retire(old, [this.content]);
    this.startPass(undefined);
  }

  private retire(old: PlaylistContent, kept: readonly PlaylistContent[]): void {
    const paths = new Set(kept.flatMap((content) => content.items.map((item) => item.path)));
    const gone = old.items.filter((item) => !paths.has(item.path));
    if (gone.length) this.events.onRetired?.(gone);
  }

  private startPass(previous: readonly number[] | undefined = this.order): void {
    this.order = passOrder(this.content.items.length, this.content.shuffle, this.random, previous);
    this.index = 0;
    this.passes += 1;
    this.events.onPass?.(
      this.order.map((index) => this.content.items[index]!.id),
      this.passes,
    );
  }
}
