// The creator's edits of a running stream's playlist, as heartbeat answers bring them (lambdas/contract/stream-task.ts,
// HeartbeatAnswer): the new items are fetched and remuxed beside the playing ones (those kept are reused), checked
// against the playlist's profile, then handed to the playlist, which applies them at the next join or the next
// ffmpeg run (playlist.ts). The answer repeats with every heartbeat until the heartbeat reports the new revision,
// so one edit is prepared once; an edit that cannot be prepared is logged and not tried again.
import type { PlaylistApply, TaskPlaylist } from '../../lambdas/contract/stream-task';
import type { InputFetcher } from './inputs';
import type { LogFn } from './log';
import type { PlaylistPlayback } from './media';
import { preparePlaylist } from './playlist-media';

export class PlaylistEdits {
  private playback?: PlaylistPlayback;
  private preparing?: number;
  private readonly refused = new Set<number>();

  constructor(
    private readonly fetchers: readonly InputFetcher[],
    private readonly workDir: string,
    private readonly log: LogFn,
    private readonly signal?: AbortSignal,
  ) {}

  /** The playlist is playing: edits can be applied from now on. */
  ready(playback: PlaylistPlayback | undefined): void {
    this.playback = playback;
  }

  /** A heartbeat's answer named an edit; resolves when it is handed over (or refused). */
  async receive(edit: { playlist: TaskPlaylist; apply: PlaylistApply }): Promise<void> {
    const playback = this.playback;
    const revision = edit.playlist.revision;
    if (!playback || revision <= playback.runtime.status().revision || this.preparing !== undefined || this.refused.has(revision)) return;
    this.preparing = revision;
    try {
      const content = await preparePlaylist(edit.playlist, this.fetchers, this.workDir, {
        withAudio: playback.withAudio,
        known: playback.runtime.items(),
        profile: playback.profile,
        ...(this.signal ? { signal: this.signal } : {}),
      });
      playback.runtime.update(content, edit.apply);
      this.log(`playlist revision ${revision} ready, applies at the next ${edit.apply}`, 'info', { items: content.items.length });
    } catch (error) {
      this.refused.add(revision);
      this.log(`playlist revision ${revision} not applied: ${(error as Error).message}`, 'error');
    } finally {
      this.preparing = undefined;
    }
  }
}
