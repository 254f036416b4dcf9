import { useI18n, type ErrorTextKey } from '../../../i18n/i18n-context';
import { formatWait } from '../wait-time';
import { FormAlert } from './form-alert';

/** The form-level error, with when to try again after too many attempts. */
export function FormProblemAlert({ problem, retryAfterSeconds }: { problem: ErrorTextKey | undefined; retryAfterSeconds?: number | undefined }) {
  const { t, errorText, language } = useI18n();
  if (!problem) return null;
  return (
    <FormAlert tone="error">
      <p>{errorText(problem)}</p>
      {retryAfterSeconds !== undefined && <p>{t('auth.retryIn', { time: formatWait(retryAfterSeconds, language.htmlLang) })}</p>}
    </FormAlert>
  );
}
