import { Spinner } from './spinner';

/** What shows while a client-rendered page loads its code and texts; no words, so no language is needed yet. */
export function PageLoading() {
  return (
    <div className="page-loading" aria-busy="true">
      <Spinner className="spinner--large" />
    </div>
  );
}
