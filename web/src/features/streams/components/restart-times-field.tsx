import { useId, useMemo } from 'react';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { addRow, changeRow, removeRow, rowsWithValue, type RestartTimeRow } from '../restart-times';
import { weekdayName, weekdays, type Weekday } from '../schedule-draft';

interface RestartTimesFieldProps {
  rows: RestartTimeRow[];
  timeZone: string;
  onRowsChange: (rows: RestartTimeRow[]) => void;
  onTimeZoneChange: (timeZone: string) => void;
  /** The API's refusal of the times (with the time it names) or of the zone, translated. */
  timesProblem?: { message: string; value?: string };
  timeZoneProblem?: string;
}

/** Restart times (any number), each every day or on one weekday, and the time zone they are in (the schedule's too). */
export function RestartTimesField({ rows, timeZone, onRowsChange, onTimeZoneChange, timesProblem, timeZoneProblem }: RestartTimesFieldProps) {
  const { t, language } = useI18n();
  const ids = useId();
  const refusedRows = rowsWithValue(rows, timesProblem?.value);
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);

  return (
    <fieldset className="stream-field stream-fieldset" aria-describedby={`${ids}-note`}>
      <legend className="stream-label">{t('streams.form.restartTimes')}</legend>
      {rows.length > 0 && (
        <ol className="stream-times">
          {rows.map((row, index) => (
            <li key={row.id} className="stream-times__row">
              <select
                className="stream-input stream-times__day"
                aria-label={t('streams.form.restartDay', { number: index + 1 })}
                value={row.day}
                onChange={(event) => onRowsChange(changeRow(rows, row.id, { day: event.target.value as Weekday | '' }))}
              >
                <option value="">{t('streams.form.everyDay')}</option>
                {weekdays.map((day) => (
                  <option key={day} value={day}>
                    {weekdayName(day, language.htmlLang, 'long')}
                  </option>
                ))}
              </select>
              <input
                type="time"
                className="stream-input stream-times__input"
                aria-label={t('streams.form.restartTime', { number: index + 1 })}
                aria-invalid={refusedRows.has(row.id) || (timesProblem !== undefined && timesProblem.value === undefined) || undefined}
                value={row.value}
                onChange={(event) => onRowsChange(changeRow(rows, row.id, { value: event.target.value }))}
              />
              <Button variant="transparent" size="small" onClick={() => onRowsChange(removeRow(rows, row.id))}>
                <span aria-hidden="true">×</span>
                <span className="visually-hidden">{t('streams.form.removeRestartTime', { number: index + 1 })}</span>
              </Button>
            </li>
          ))}
        </ol>
      )}
      {timesProblem ? (
        <p id={`${ids}-note`} className="stream-field__error" role="alert">
          {timesProblem.message}
        </p>
      ) : (
        <p id={`${ids}-note`} className="stream-field__help">
          {t('streams.form.restartTimesHelp')}
        </p>
      )}
      <div>
        <Button variant="dashed" size="small" onClick={() => onRowsChange(addRow(rows))}>
          {t('streams.form.addRestartTime')}
        </Button>
      </div>
      <div className="stream-field">
        <label className="stream-label" htmlFor={`${ids}-zone`}>
          {t('streams.form.timeZone')}
        </label>
        <input
          id={`${ids}-zone`}
          className="stream-input"
          list={`${ids}-zones`}
          required
          autoComplete="off"
          spellCheck={false}
          aria-invalid={timeZoneProblem !== undefined || undefined}
          aria-describedby={timeZoneProblem ? `${ids}-zone-error` : undefined}
          value={timeZone}
          onChange={(event) => onTimeZoneChange(event.target.value)}
        />
        <datalist id={`${ids}-zones`}>
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        {timeZoneProblem && (
          <p id={`${ids}-zone-error`} className="stream-field__error" role="alert">
            {timeZoneProblem}
          </p>
        )}
      </div>
    </fieldset>
  );
}
