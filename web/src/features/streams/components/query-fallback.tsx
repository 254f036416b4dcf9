import { Button } from '../../../components/button/button';
import { Spinner } from '../../../components/spinner';
import { useI18n } from '../../../i18n/i18n-context';
import { errorKeyOf } from '../api/error-key';

/** What a section shows before its data is there: the API's refusal in plain words with Try again, or a spinner. */
export function QueryFallback({ query }: { query: { isError: boolean; error: unknown; refetch: () => unknown } }) {
  const { t, errorText } = useI18n();
  if (query.isError) {
    return (
      <div className="stream-problem" role="alert">
        <p>{errorText(errorKeyOf(query.error))}</p>
        <Button variant="secondary" size="small" onClick={() => void query.refetch()}>
          {t('streams.retry')}
        </Button>
      </div>
    );
  }
  return (
    <div className="stream-loading" aria-busy="true">
      <Spinner className="spinner--large" />
    </div>
  );
}
