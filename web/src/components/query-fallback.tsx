import { errorKeyOf } from '../api/client';
import { useI18n } from '../i18n/i18n-context';
import { Button } from './button/button';
import { Spinner } from './spinner';

/**
 * What a section shows before its data is there: the API's refusal in plain words with Try again, or a spinner.
 * `area` names the section's styles (`<area>-problem`, `<area>-loading`); `retryLabel` is its Try again.
 */
export function QueryFallback({
  query,
  area,
  retryLabel,
}: {
  query: { isError: boolean; error: unknown; refetch: () => unknown };
  area: string;
  retryLabel: string;
}) {
  const { errorText } = useI18n();
  if (query.isError) {
    return (
      <div className={`${area}-problem`} role="alert">
        <p>{errorText(errorKeyOf(query.error))}</p>
        <Button variant="secondary" size="small" onClick={() => void query.refetch()}>
          {retryLabel}
        </Button>
      </div>
    );
  }
  return (
    <div className={`${area}-loading`} aria-busy="true">
      <Spinner className="spinner--large" />
    </div>
  );
}
