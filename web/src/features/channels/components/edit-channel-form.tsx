import { errorKeyOf } from '../../../api/client';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button/button';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { destinationPresetIds, presetById } from '@loopcast/contract/destination-presets';
import { platformName } from '../../../lib/platform-text';
import { useUpdateChannel, type ChannelChanges, type ChannelView, type StreamUsingChannel } from '../api/channels-api';
import { fieldRefusals } from '../api/error-key';
import { useFieldProblem } from '../hooks/use-field-problem';
import { choosePreset, editServerUrl, type RtmpDraft } from '../rtmp-presets';
import { FieldNote } from './field-note';
import { PlatformNotes } from './platform-notes';
import { StreamKeyInput } from './stream-key-input';

/**
 * Renames a destination; a stream key destination also gets a new platform, server URL or key here (an empty key
 * field keeps the current one). Picking a platform works as in the form that adds one: its server URL (and name)
 * filled in, its requirements and limits shown. Only what changed is sent. While a stream runs on it, its address
 * cannot change: the form says which stream to stop, and the name can still change.
 */
export function EditChannelForm({ channel, streams, onDone }: { channel: ChannelView; streams: StreamUsingChannel[]; onDone: () => void }) {
  const { t, errorText, language } = useI18n();
  const ids = useId();
  const [draft, setDraft] = useState<RtmpDraft>({ preset: channel.preset, name: channel.name, url: channel.rtmpUrl ?? '', key: '' });
  const { name, url, key } = draft;
  const update = useUpdateChannel(channel.id);
  const refused = update.isError ? fieldRefusals(update.error) : {};
  const problem = useFieldProblem();
  const rtmp = channel.kind === 'rtmp';
  const live = streams.filter((stream) => stream.running);
  const liveNames = new Intl.ListFormat(language.htmlLang).format(live.map((stream) => t('app.quoted', { text: stream.title })));
  const platformChanged = draft.preset !== channel.preset;
  const ingest = presetById(draft.preset).ingest;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: ChannelChanges = {
      ...(name.trim() !== channel.name ? { name: name.trim() } : {}),
      ...(rtmp && platformChanged ? { preset: draft.preset } : {}),
      ...(rtmp && url.trim() !== channel.rtmpUrl ? { url: url.trim() } : {}),
      ...(rtmp && key.trim() ? { key: key.trim() } : {}),
    };
    if (Object.keys(changes).length === 0) return onDone();
    update.mutate(changes, {
      onSuccess: (saved) => {
        showToast({ message: t('channels.edit.saved', { name: saved.name }), tone: 'success' });
        onDone();
      },
    });
  };

  return (
    <form className="dest-form dest-card__edit" onSubmit={submit} aria-label={t('channels.edit.title', { name: channel.name })}>
      <div className="dest-field">
        <label className="dest-label" htmlFor={`${ids}-name`}>
          {t('channels.rtmp.name')}
        </label>
        <input
          id={`${ids}-name`}
          className="dest-input"
          required
          maxLength={80}
          aria-invalid={refused.name ? true : undefined}
          aria-describedby={`${ids}-name-note`}
          value={name}
          onChange={(event) => setDraft({ ...draft, name: event.target.value })}
        />
        <FieldNote id={`${ids}-name-note`} {...problem('name', refused.name)} />
      </div>
      {rtmp && (
        <>
          {live.length > 0 && (
            <p className="dest-card__note" data-in-use="running">
              {t('channels.edit.liveAddress', { count: live.length, streams: liveNames })}
            </p>
          )}
          <div className="dest-field">
            <label className="dest-label" htmlFor={`${ids}-platform`}>
              {t('channels.rtmp.platform')}
            </label>
            <select
              id={`${ids}-platform`}
              className="dest-input"
              disabled={live.length > 0}
              aria-describedby={`${ids}-platform-notes`}
              value={draft.preset}
              onChange={(event) => setDraft(choosePreset(draft, event.target.value as RtmpDraft['preset']))}
            >
              {destinationPresetIds.map((id) => (
                <option key={id} value={id}>
                  {platformName(t, id)}
                </option>
              ))}
            </select>
          </div>
          <PlatformNotes id={`${ids}-platform-notes`} preset={draft.preset} />
          <div className="dest-field">
            <label className="dest-label" htmlFor={`${ids}-url`}>
              {t('channels.serverUrl')}
            </label>
            <input
              id={`${ids}-url`}
              className="dest-input dest-input--mono"
              required
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              disabled={live.length > 0}
              aria-invalid={refused.url ? true : undefined}
              placeholder={ingest.kind === 'per-user' ? ingest.example : 'rtmp://'}
              aria-describedby={`${ids}-url-note`}
              value={url}
              onChange={(event) => setDraft(editServerUrl(draft, event.target.value))}
            />
            <FieldNote id={`${ids}-url-note`} {...problem('url', refused.url)} help={t('channels.rtmp.urlHelp')} />
          </div>
          <div className="dest-field">
            <label className="dest-label" htmlFor={`${ids}-key`}>
              {t('channels.edit.newKey')}
            </label>
            <StreamKeyInput
              id={`${ids}-key`}
              maxLength={512}
              disabled={live.length > 0}
              aria-invalid={refused.key ? true : undefined}
              aria-describedby={`${ids}-key-note`}
              value={key}
              onChange={(event) => setDraft({ ...draft, key: event.target.value })}
            />
            <FieldNote
              id={`${ids}-key-note`}
              {...problem('key', refused.key)}
              help={
                platformChanged
                  ? t('channels.edit.newPlatformKey', { platform: platformName(t, draft.preset), hint: channel.keyHint ?? '' })
                  : t('channels.edit.keepKey', { hint: channel.keyHint ?? '' })
              }
            />
          </div>
        </>
      )}
      {update.isError && Object.keys(refused).length === 0 && (
        <p className="dest-field__error" role="alert">
          {errorText(errorKeyOf(update.error))}
        </p>
      )}
      <div className="dest-card__actions">
        <Button type="submit" size="small" loading={update.isPending}>
          {t('channels.edit.save')}
        </Button>
        <Button variant="secondary" size="small" disabled={update.isPending} onClick={onDone}>
          {t('channels.cancel')}
        </Button>
      </div>
    </form>
  );
}
