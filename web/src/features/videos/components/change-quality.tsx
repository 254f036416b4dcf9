import { errorKeyOf } from '../../../api/client';
import { useId, useRef, useState } from 'react';
import { Button } from '../../../components/button/button';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { formatBytes } from '../../../lib/format';
import { useChangeQuality, type VideoItem } from '../api/videos-api';
import { bitrateOf, lowerChoices, outputOfChoice, storedBytesPerHour, type OutputProfileId, type QualityChoice } from '../../../lib/quality';
import { useQualityText } from '../../../lib/use-quality-text';

const keyOf = (choice: QualityChoice) => `${choice.profile}:${choice.tier}`;

/**
 * Makes a ready video lighter (POST /videos/{id}/quality): the choices are the plan's profiles and tiers below the
 * file it has, as the original is not kept; each says the storage an hour takes. A refusal (a running stream plays
 * it) shows in the dialog, translated.
 */
export function ChangeQualityDialog({ video, allowed, onClose }: { video: VideoItem; allowed: readonly OutputProfileId[]; onClose: () => void }) {
  const { t, errorText, language } = useI18n();
  const { outputText } = useQualityText();
  const change = useChangeQuality(video.id);
  const choices = lowerChoices(video.output, allowed);
  const [picked, setPicked] = useState(choices[0] ? keyOf(choices[0]) : '');
  const titleId = useId();
  const name = useId();
  const chosen = choices.find((choice) => keyOf(choice) === picked);
  // Awaited rather than mutate's callbacks: the card loses this dialog as soon as the item turns `encoding` (often
  // by realtime, before the answer), and the toast must still say what started.
  const submit = async () => {
    if (!chosen) return;
    try {
      await change.mutateAsync(chosen);
    } catch {
      return; // Shown below while the dialog is open.
    }
    showToast({ message: t('videos.quality.changeStarted', { title: video.title, target: outputText(outputOfChoice(chosen)) }), tone: 'success' });
    onClose();
  };
  return (
    <>
      <h2 className="confirm-dialog__title" id={titleId}>
        {t('videos.quality.changeTitle', { title: video.title })}
      </h2>
      {choices.length === 0 ? (
        <p>{t('videos.quality.nothingLower')}</p>
      ) : (
        <>
          <p>{t('videos.quality.changeLead')}</p>
          <fieldset className="quality-choices" aria-labelledby={titleId}>
            {choices.map((choice) => (
              <label key={keyOf(choice)} className="quality-choices__option">
                <input type="radio" name={name} value={keyOf(choice)} checked={picked === keyOf(choice)} onChange={() => setPicked(keyOf(choice))} />
                {t('videos.quality.changeOption', {
                  quality: outputText(outputOfChoice(choice)),
                  perHour: formatBytes(storedBytesPerHour(bitrateOf(choice)), language.htmlLang),
                })}
              </label>
            ))}
          </fieldset>
        </>
      )}
      {change.isError && (
        <p className="videos-alert" role="alert">
          {errorText(errorKeyOf(change.error))}
        </p>
      )}
      <div className="confirm-dialog__actions">
        <Button variant="secondary" onClick={onClose}>
          {t('videos.quality.changeCancel')}
        </Button>
        {choices.length > 0 && (
          <Button loading={change.isPending} disabled={!chosen} onClick={() => void submit()}>
            {t('videos.quality.changeSubmit')}
          </Button>
        )}
      </div>
    </>
  );
}

/**
 * "Change quality" on a ready video's card, with its dialog (mounted while open, so each opening starts afresh). A
 * video that already has the lightest quality the plan offers has nothing to change to: the button is off and says
 * why beside it, rather than opening a dialog in which nothing can be done.
 */
export function ChangeQuality({ video, allowed }: { video: VideoItem; allowed: readonly OutputProfileId[] }) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const noteId = useId();
  const close = () => dialog.current?.close();
  if (lowerChoices(video.output, allowed).length === 0) {
    return (
      <>
        <p id={noteId} className="video-card__action-note" data-lightest>
          {t('videos.quality.nothingLower')}
        </p>
        <Button
          variant="transparent"
          size="small"
          className="video-card__change-quality"
          aria-label={`${t('videos.quality.change')}: ${video.title}`}
          aria-describedby={noteId}
          disabled
        >
          {t('videos.quality.change')}
        </Button>
      </>
    );
  }
  return (
    <>
      <Button
        variant="transparent"
        size="small"
        className="video-card__change-quality"
        aria-label={`${t('videos.quality.change')}: ${video.title}`}
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
      >
        {t('videos.quality.change')}
      </Button>
      <dialog ref={dialog} className="confirm-dialog" aria-label={t('videos.quality.changeTitle', { title: video.title })} onClose={() => setOpen(false)}>
        {open && <ChangeQualityDialog video={video} allowed={allowed} onClose={close} />}
      </dialog>
    </>
  );
}
