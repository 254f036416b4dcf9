import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button/button';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { useSaveSchedule, type Stream } from '../api/streams-api';
import { formProblemOf } from '../form-problems';
import { useNow } from '../hooks/use-now';
import { isRunning } from '../stream-display';
import { scheduleChanged, scheduleCheck, scheduleDraftOf, scheduleOf, type ScheduleDraft } from '../schedule-draft';
import { ScheduleField } from './schedule-field';

/** A stream's schedule alone, in any state: a running stream keeps running, the new schedule applies from its next
 * start or stop. */
export function ScheduleForm({ stream, onDone }: { stream: Stream; onDone: () => void }) {
  const { t } = useI18n();
  const now = useNow(60_000);
  const [draft, setDraft] = useState(() => scheduleDraftOf(stream.schedule, Date.now(), stream.timeZone));
  const [attempts, setAttempts] = useState(0);
  const save = useSaveSchedule(stream.id);
  const change = (changes: Partial<ScheduleDraft>) => setDraft((current) => ({ ...current, ...changes }));
  // A one-time schedule's passed times only matter when it changed (the API keeps an unchanged one as it is).
  const context = { saved: stream.schedule, now, timeZone: stream.timeZone };
  const check = attempts > 0 ? scheduleCheck(draft, context) : undefined;
  const refusal = save.isError ? formProblemOf(save.error) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempts((count) => count + 1);
    if (scheduleCheck(draft, { ...context, now: Date.now() })) return;
    // Nothing changed: nothing to send (a schedule that has run keeps its past times, which a new one could not have).
    if (!scheduleChanged(stream.schedule, draft)) {
      showToast({ message: t('streams.schedule.saved', { title: stream.title }), tone: 'success' });
      onDone();
      return;
    }
    save.mutate(scheduleOf(draft), {
      onSuccess: (saved) => {
        showToast({ message: t('streams.schedule.saved', { title: saved.title }), tone: 'success' });
        onDone();
      },
    });
  };

  return (
    <form className="stream-form" onSubmit={submit}>
      {isRunning(stream.status) && <p className="stream-form__plan">{t('streams.schedule.runningNote')}</p>}
      <ScheduleField draft={draft} onChange={change} timeZone={stream.timeZone} check={check} refusal={refusal} attempt={attempts} />
      <div className="stream-form__actions">
        <Button type="submit" loading={save.isPending}>
          {t('streams.schedule.save')}
        </Button>
        <Button variant="secondary" disabled={save.isPending} onClick={onDone}>
          {t('streams.form.cancel')}
        </Button>
      </div>
    </form>
  );
}
