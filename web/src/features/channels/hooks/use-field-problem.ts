import { useCallback } from 'react';
import { useI18n } from '../../../i18n/i18n-context';
import type { FieldRefusal } from '../api/error-key';

/**
 * The words under a refused field of a destination form: a duplicate keeps the API's catalogued message and says
 * what to do about it; a value the API cannot use says what a good one looks like.
 */
export function useFieldProblem() {
  const { t, errorText } = useI18n();
  return useCallback(
    (field: 'name' | 'url' | 'key', refusal: FieldRefusal | undefined): { problem?: string; next?: string } => {
      if (!refusal) return {};
      if (refusal === 'duplicate')
        return { problem: errorText('duplicate destination'), next: t(field === 'name' ? 'channels.duplicate.name' : 'channels.duplicate.key') };
      if (refusal === 'rtmps') return { problem: errorText('platform requires rtmps') };
      if (field === 'url') return { problem: t('channels.rtmp.urlInvalid') };
      if (field === 'key') return { problem: t('channels.rtmp.keyInvalid') };
      return { problem: errorText('invalid request') };
    },
    [t, errorText],
  );
}
