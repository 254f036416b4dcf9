import { useCallback, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n-context';
import type { AccountField, FieldProblem, FormProblems } from '../form-errors';
import { failedPasswordRule, PASSWORD_MIN_DISTINCT, PASSWORD_MIN_LENGTH } from '../password-rules';

const none = { fields: {} };

/**
 * A form's problems, and focus on the first one after each failed submit (the first invalid field, else the
 * form's error message), so keyboard and screen-reader users land where the fix is.
 */
export function useFormProblems<F extends AccountField>() {
  const formRef = useRef<HTMLFormElement>(null);
  const [problems, setProblems] = useState<FormProblems<F>>(none);
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], .form-alert--error')?.focus();
  }, [failures]);
  const fail = useCallback((next: FormProblems<F>) => {
    setProblems(next);
    setFailures((count) => count + 1);
  }, []);
  const clear = useCallback(() => setProblems(none), []);
  return { formRef, problems, fail, clear };
}

/** The text of a field's problem. */
export function useProblemText(): (field: AccountField, problem: FieldProblem | undefined) => string | undefined {
  const { t, errorText } = useI18n();
  return useCallback(
    (field, problem) => {
      if (problem === undefined) return undefined;
      if (problem === 'missing') return t(`auth.missing.${field}`);
      return problem === 'invalid' ? t('auth.fieldInvalid') : errorText(problem);
    },
    [t, errorText],
  );
}

/**
 * What to do about a field's problem, in plain words beside the catalogue's message (which stays as the API says
 * it): which password rule failed (the server's 'weak password' names none; the rules the browser checks are
 * known, so a refusal they all pass is the common-password rule), an address that already has an account, a
 * throwaway address.
 */
export function useNextStepText(): (
  field: AccountField,
  problem: FieldProblem | undefined,
  values?: { password: string; email: string },
) => string | undefined {
  const { t } = useI18n();
  return useCallback(
    (field, problem, values) => {
      if ((field === 'password' || field === 'newPassword') && problem === 'weak password' && values) {
        const rule = failedPasswordRule(values.password, values.email);
        if (rule === 'length') return t('auth.hints.weakLength', { minimum: PASSWORD_MIN_LENGTH });
        if (rule === 'distinct') return t('auth.hints.weakDistinct', { minimum: PASSWORD_MIN_DISTINCT });
        return t(rule === 'notEmail' ? 'auth.hints.weakEmail' : 'auth.hints.weakCommon');
      }
      if (field === 'email' && problem === 'disposable email') return t('auth.hints.disposable');
      return undefined;
    },
    [t],
  );
}
