import { useEffect, useId, useRef } from 'react';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import {
  addWindow,
  changeWindow,
  checkPath,
  removeWindow,
  weekdayName,
  weekdays,
  type ScheduleCheck,
  type ScheduleDraft,
  type ScheduleMode,
  type StopMode,
  type Weekday,
} from '../schedule-draft';
import type { FormProblem } from '../form-problems';

interface ScheduleFieldProps {
  draft: ScheduleDraft;
  onChange: (changes: Partial<ScheduleDraft>) => void;
  /** The zone the times are in (the stream's, chosen with its restart times). */
  timeZone: string;
  /** The form's own check of the draft, shown before the API's refusal. */
  check?: ScheduleCheck | undefined;
  /** The API's refusal and the part it names ('schedule.startAt', 'schedule.stopAt', 'schedule.windows'). */
  refusal?: Pick<FormProblem, 'key' | 'path'> | undefined;
  /** Counts the form's attempts to save: after one that the check stopped, the field it names gets the focus. */
  attempt?: number;
}

/** A time saved with seconds (the API takes them) would not fit the input's default step of a minute, and the browser
 * would refuse the form on its own: such a value gets a step of a second. */
const secondsStep = (value: string) => (value.length > 16 ? 1 : undefined);

const modes: ScheduleMode[] = ['none', 'once', 'weekly'];
const stopModes: StopMode[] = ['none', 'at', 'after'];

/** When the stream goes on and off air by itself: only by hand, once, or by a weekly timetable of on-air windows. */
export function ScheduleField({ draft, onChange, timeZone, check, refusal, attempt = 0 }: ScheduleFieldProps) {
  const { t, language, errorText } = useI18n();
  const checkedPath = check && checkPath(check);
  const problem: { message: string; path?: string } | undefined = check
    ? { message: t(`streams.schedule.check.${check}`), ...(checkedPath ? { path: checkedPath } : {}) }
    : refusal && { message: errorText(refusal.key), ...(refusal.path ? { path: refusal.path } : {}) };
  const ids = useId();
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const invalid = (path: string) => (problem && (problem.path === undefined || problem.path === path)) || undefined;
  // A problem with one time shows beside that time; the others under the whole schedule.
  const at = (path: string) => problem?.path === path || (path === 'schedule.stopAt' && problem?.path === 'schedule.durationMinutes');
  const shownAtField = problem !== undefined && (at('schedule.startAt') || at('schedule.stopAt'));
  const problemText = (id: string) => (
    <p id={id} className="stream-field__error" role="alert">
      {problem?.message}
    </p>
  );
  // Where the form's own check stopped a save, as a browser does with its own checks (but in the page's words).
  useEffect(() => {
    if (attempt > 0 && check) fieldset.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    // Only a new attempt moves the focus, not a check that changes while typing.
  }, [attempt]);

  return (
    <fieldset ref={fieldset} className="stream-field stream-fieldset stream-schedule" aria-describedby={`${ids}-note`} data-schedule-mode={draft.mode}>
      <legend className="stream-label">{t('streams.schedule.title')}</legend>
      <div className="stream-schedule__modes" role="radiogroup" aria-label={t('streams.schedule.title')}>
        {modes.map((mode) => (
          <label key={mode} className="stream-choice stream-schedule__mode">
            <input type="radio" name={`${ids}-mode`} value={mode} checked={draft.mode === mode} onChange={() => onChange({ mode })} />
            <span className="stream-choice__name">{t(`streams.schedule.mode.${mode}`)}</span>
          </label>
        ))}
      </div>

      {draft.mode === 'once' && (
        <div className="stream-form__pair">
          <div className="stream-field">
            <label className="stream-label" htmlFor={`${ids}-start`}>
              {t('streams.schedule.startAt')}
            </label>
            <input
              id={`${ids}-start`}
              className="stream-input stream-schedule__when"
              type="datetime-local"
              step={secondsStep(draft.startAt)}
              value={draft.startAt}
              aria-invalid={invalid('schedule.startAt')}
              aria-describedby={at('schedule.startAt') ? `${ids}-start-error ${ids}-start-help` : `${ids}-start-help`}
              onChange={(event) => onChange({ startAt: event.target.value })}
            />
            {at('schedule.startAt') && problemText(`${ids}-start-error`)}
            <p id={`${ids}-start-help`} className="stream-field__help">
              {t('streams.schedule.startAtHelp')}
            </p>
          </div>
          <fieldset className="stream-field stream-fieldset">
            <legend className="stream-label">{t('streams.schedule.stop')}</legend>
            <div className="stream-schedule__stops">
              {stopModes.map((stopMode) => (
                <label key={stopMode} className="stream-schedule__stop">
                  <input type="radio" name={`${ids}-stop`} value={stopMode} checked={draft.stopMode === stopMode} onChange={() => onChange({ stopMode })} />
                  {t(`streams.schedule.stopMode.${stopMode}`)}
                </label>
              ))}
            </div>
            {draft.stopMode === 'at' && (
              <input
                className="stream-input stream-schedule__when"
                type="datetime-local"
                aria-label={t('streams.schedule.stopAt')}
                step={secondsStep(draft.stopAt)}
                required
                value={draft.stopAt}
                aria-invalid={invalid('schedule.stopAt')}
                aria-describedby={at('schedule.stopAt') ? `${ids}-stop-error` : undefined}
                onChange={(event) => onChange({ stopAt: event.target.value })}
              />
            )}
            {draft.stopMode === 'after' && (
              <div className="stream-schedule__duration" role="group" aria-label={t('streams.schedule.duration')}>
                <label className="stream-schedule__amount">
                  <input
                    className="stream-input stream-form__minutes-input"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={8784}
                    step={1}
                    value={draft.durationHours}
                    aria-invalid={invalid('schedule.durationMinutes')}
                    onChange={(event) => onChange({ durationHours: event.target.value })}
                  />
                  <span>{t('streams.schedule.hours', { count: Number(draft.durationHours) || 0 })}</span>
                </label>
                <label className="stream-schedule__amount">
                  <input
                    className="stream-input stream-form__minutes-input"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={59}
                    step={1}
                    value={draft.durationMinutes}
                    aria-invalid={invalid('schedule.durationMinutes')}
                    onChange={(event) => onChange({ durationMinutes: event.target.value })}
                  />
                  <span>{t('streams.schedule.minutes', { count: Number(draft.durationMinutes) || 0 })}</span>
                </label>
              </div>
            )}
            {at('schedule.stopAt') && problemText(`${ids}-stop-error`)}
          </fieldset>
        </div>
      )}

      {draft.mode === 'weekly' && (
        <>
          {draft.windows.length > 0 && (
            <ol className="stream-windows">
              {draft.windows.map((window, index) => (
                <li key={window.id} className="stream-windows__row" data-window={index + 1}>
                  <select
                    className="stream-input stream-windows__day"
                    aria-label={t('streams.schedule.windowDay', { number: index + 1 })}
                    value={window.day}
                    aria-invalid={invalid('schedule.windows')}
                    onChange={(event) => onChange({ windows: changeWindow(draft.windows, window.id, { day: event.target.value as Weekday }) })}
                  >
                    {weekdays.map((day) => (
                      <option key={day} value={day}>
                        {weekdayName(day, language.htmlLang, 'long')}
                      </option>
                    ))}
                  </select>
                  <input
                    type="time"
                    className="stream-input stream-times__input"
                    aria-label={t('streams.schedule.windowStart', { number: index + 1 })}
                    required
                    value={window.start}
                    aria-invalid={invalid('schedule.windows')}
                    onChange={(event) => onChange({ windows: changeWindow(draft.windows, window.id, { start: event.target.value }) })}
                  />
                  <span aria-hidden="true">–</span>
                  <input
                    type="time"
                    className="stream-input stream-times__input"
                    aria-label={t('streams.schedule.windowStop', { number: index + 1 })}
                    required
                    value={window.stop}
                    aria-invalid={invalid('schedule.windows')}
                    onChange={(event) => onChange({ windows: changeWindow(draft.windows, window.id, { stop: event.target.value }) })}
                  />
                  <Button variant="transparent" size="small" onClick={() => onChange({ windows: removeWindow(draft.windows, window.id) })}>
                    <span aria-hidden="true">×</span>
                    <span className="visually-hidden">{t('streams.schedule.removeWindow', { number: index + 1 })}</span>
                  </Button>
                </li>
              ))}
            </ol>
          )}
          <div>
            <Button variant="dashed" size="small" onClick={() => onChange({ windows: addWindow(draft.windows) })}>
              {t('streams.schedule.addWindow')}
            </Button>
          </div>
        </>
      )}

      {problem && !shownAtField ? (
        problemText(`${ids}-note`)
      ) : (
        <p id={`${ids}-note`} className="stream-field__help">
          {draft.mode === 'weekly'
            ? t('streams.schedule.windowsHelp', { zone: timeZone })
            : draft.mode === 'once'
              ? t('streams.schedule.onceHelp', { zone: timeZone })
              : t('streams.schedule.noneHelp')}
        </p>
      )}
    </fieldset>
  );
}
