import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button/button';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { useReadyMedia, useStreamPlan } from '../api/stream-sources';
import { useSavePlaylist, type PlaylistApply, type Stream } from '../api/streams-api';
import { formProblemOf } from '../form-problems';
import { playlistMismatch } from '../playlist-draft';
import { PlaylistField, PlaylistRefusal, type PlaylistValue } from './playlist-field';

/**
 * A running stream's playlist, edited while it plays: the creator chooses whether the new list takes over at the next
 * change of video (seamless) or at the next restart. The video playing now is named, as the task's heartbeat reports.
 */
export function PlaylistEditor({ stream }: { stream: Stream & { playlist: NonNullable<Stream['playlist']> } }) {
  const { t } = useI18n();
  const ids = useId();
  const media = useReadyMedia();
  const plan = useStreamPlan();
  const save = useSavePlaylist(stream.id);
  const [value, setValue] = useState<PlaylistValue>({ videoIds: stream.playlist.videoIds, shuffle: stream.playlist.shuffle });
  const [apply, setApply] = useState<PlaylistApply>('join');
  const videos = media.data?.videos ?? [];
  const playing = stream.health?.playlist;
  const titleOf = (id: string) => videos.find((video) => video.id === id)?.title ?? t('streams.card.unknownMedia');
  const problem = save.isError ? formProblemOf(save.error) : undefined;

  // Videos that cannot be joined are named in the field; saving waits until they are gone.
  const mismatch = playlistMismatch(value.videoIds, videos);

  // Awaited rather than mutate's callbacks: the save publishes stream.state before it answers, and the refetch it
  // starts can bring the new revision first, which remounts this editor (keyed by revision) and would drop them.
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (mismatch) return;
    try {
      await save.mutateAsync({ ...value, apply });
    } catch {
      return; // Shown below while the editor is open.
    }
    showToast({ message: t(apply === 'join' ? 'streams.playlist.savedJoin' : 'streams.playlist.savedRestart'), tone: 'success' });
  };

  return (
    <form className="playlist-editor" onSubmit={(event) => void submit(event)} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="playlist-editor__title">
        {t('streams.playlist.editTitle')}
      </h2>
      {playing && (
        <p className="playlist-editor__playing">
          {t('streams.playlist.playing', { title: titleOf(playing.videoId) })}
          {playing.revision > playing.applied && <> · {t('streams.playlist.waiting')}</>}
        </p>
      )}
      <PlaylistField value={value} onChange={setValue} videos={videos} limit={plan.data?.playlistItems} />
      <fieldset className="stream-fieldset playlist-editor__apply">
        <legend className="stream-label">{t('streams.playlist.applyTitle')}</legend>
        {(['join', 'restart'] as const).map((mode) => (
          <label key={mode} className="playlist-field__shuffle">
            <input type="radio" name={`${ids}-apply`} value={mode} checked={apply === mode} onChange={() => setApply(mode)} />
            {t(mode === 'join' ? 'streams.playlist.applyJoin' : 'streams.playlist.applyRestart')}
          </label>
        ))}
      </fieldset>
      {problem && <PlaylistRefusal problem={problem} videos={videos} />}
      <div className="stream-form__actions">
        <Button type="submit" loading={save.isPending} disabled={value.videoIds.length === 0 || mismatch !== undefined}>
          {t('streams.playlist.save')}
        </Button>
      </div>
    </form>
  );
}
