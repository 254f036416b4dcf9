import { errorKeyOf } from '../../../api/client';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button/button';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { useAddRtmpChannel } from '../api/channels-api';
import { fieldRefusals } from '../api/error-key';
import { useFieldProblem } from '../hooks/use-field-problem';
import { destinationPresetIds, presetById } from '@loopcast/contract/destination-presets';
import { platformName } from '../../../lib/platform-text';
import { KEY_HINT_MIN_LENGTH } from '../key-hint';
import { choosePreset, editServerUrl, emptyRtmpDraft } from '../rtmp-presets';
import { FieldNote } from './field-note';
import { PlatformNotes } from './platform-notes';
import { StreamKeyInput } from './stream-key-input';

/** Adds a destination by platform, server URL and stream key (any platform that takes RTMP or RTMPS). */
export function AddRtmpChannelForm() {
  const { t, errorText } = useI18n();
  const ids = useId();
  const [draft, setDraft] = useState(emptyRtmpDraft);
  /** A new key field after each destination added, so the next key starts hidden again. */
  const [added, setAdded] = useState(0);
  const adding = useAddRtmpChannel();
  const refused = adding.isError ? fieldRefusals(adding.error) : {};
  const problem = useFieldProblem();
  const ingest = presetById(draft.preset).ingest;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    adding.mutate(
      { name: draft.name.trim(), url: draft.url.trim(), key: draft.key.trim(), preset: draft.preset },
      {
        onSuccess: (channel) => {
          setDraft(emptyRtmpDraft());
          setAdded((count) => count + 1);
          showToast({ message: t('channels.rtmp.added', { name: channel.name }), tone: 'success' });
        },
      },
    );
  };

  return (
    <form className="dest-form" onSubmit={submit} aria-describedby={`${ids}-lead`}>
      <p id={`${ids}-lead`} className="dest-form__lead">
        {t('channels.rtmp.lead')}
      </p>
      <fieldset className="dest-platforms" aria-describedby={`${ids}-platform-notes`}>
        <legend className="dest-label">{t('channels.rtmp.platform')}</legend>
        {destinationPresetIds.map((id) => (
          <label key={id} className="dest-platforms__option">
            <input type="radio" name={`${ids}-platform`} value={id} checked={draft.preset === id} onChange={() => setDraft(choosePreset(draft, id))} />
            <span>{platformName(t, id)}</span>
          </label>
        ))}
      </fieldset>
      <PlatformNotes id={`${ids}-platform-notes`} preset={draft.preset} />
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
          aria-describedby={`${ids}-name-help`}
          value={draft.name}
          onChange={(event) => setDraft({ ...draft, name: event.target.value })}
        />
        <FieldNote id={`${ids}-name-help`} {...problem('name', refused.name)} />
      </div>
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
          placeholder={ingest.kind === 'per-user' ? ingest.example : 'rtmp://'}
          aria-invalid={refused.url ? true : undefined}
          aria-describedby={`${ids}-url-help`}
          value={draft.url}
          onChange={(event) => setDraft(editServerUrl(draft, event.target.value))}
        />
        <FieldNote id={`${ids}-url-help`} {...problem('url', refused.url)} help={t('channels.rtmp.urlHelp')} />
      </div>
      <div className="dest-field">
        <label className="dest-label" htmlFor={`${ids}-key`}>
          {t('channels.streamKey')}
        </label>
        <StreamKeyInput
          key={added}
          id={`${ids}-key`}
          required
          maxLength={512}
          aria-invalid={refused.key ? true : undefined}
          aria-describedby={`${ids}-key-help`}
          value={draft.key}
          onChange={(event) => setDraft({ ...draft, key: event.target.value })}
        />
        <FieldNote id={`${ids}-key-help`} {...problem('key', refused.key)} help={t('channels.rtmp.keyHelp', { min: KEY_HINT_MIN_LENGTH })} />
      </div>
      {adding.isError && Object.keys(refused).length === 0 && (
        <p className="dest-field__error" role="alert">
          {errorText(errorKeyOf(adding.error))}
        </p>
      )}
      <div>
        <Button type="submit" loading={adding.isPending}>
          {t('channels.rtmp.submit')}
        </Button>
      </div>
    </form>
  );
}
