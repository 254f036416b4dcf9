import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button/button';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { useSaveSchedule, type Stream } from '../api/streams-api';
import { formProblemOf } from '../form-problems';
import { useNow } from '../hooks/use-now';
import { isRunning } from '../stream-display';
import { scheduleCheck, scheduleDraftOf, scheduleOf, type ScheduleDraft } from '../schedule-draft';
import { ScheduleField } from './schedule-field';

/** A stream's schedule alone, in any state: a running stream keeps running, the new schedule applies from its next
 * start or stop. */
export function ScheduleForm({ stream, onDone }: { stream: Stream; onDone: () => void }) {
  const { t } = useI18n();
  const now = useNow(60_000);
  const [draft, setDraft] = useState(() => scheduleDraftOf(stream.schedule, Date.now(), stream.timeZone));
  const [checked, setChecked] = useState(false);
  const save = useSaveSchedule(stream.id);
  const change = (changes: Partial<ScheduleDraft>) => setDraft((current) => ({ ...current, ...changes }));
  const check = checked ? scheduleCheck(draft) : undefined;
  const refusal = save.isError ? formProblemOf(save.error) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (scheduleCheck(draft)) return;
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
      <ScheduleField draft={draft} onChange={change} timeZone={stream.timeZone} now={now} check={check} refusal={refusal} />
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
