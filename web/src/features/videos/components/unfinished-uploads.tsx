import { useEffect, useMemo, useState } from 'react';
import { Button } from '../../../components/button/button';
import { useI18n } from '../../../i18n/i18n-context';
import { formatBytes } from '../../../lib/format';
import { browserStorage, createResumeStorage, type UnfinishedUpload } from '../resume-storage';
import type { UploadFile } from '../uploader';

/**
 * Uploads an earlier visit left unfinished (a closed tab, a lost connection): choosing the same file again
 * continues each where it stopped. Those being uploaded right now are not listed.
 */
export function UnfinishedUploads({ queue, onResume }: { queue: UploadFile[]; onResume: () => void }) {
  const { t, language } = useI18n();
  const storage = useMemo(() => createResumeStorage(browserStorage), []);
  const [entries, setEntries] = useState<UnfinishedUpload[]>([]);
  const [version, setVersion] = useState(0);
  // Entries appear when an upload starts and go when it completes; the queue's progress alone changes nothing.
  const queueState = queue.map((file) => `${file.id}:${file.progress.uploadComplete}`).join('|');
  useEffect(() => {
    let current = true;
    void storage.findAllUploads().then((found) => current && setEntries(found));
    return () => {
      current = false;
    };
  }, [storage, queueState, version]);

  const waiting = entries.filter((entry) => !queue.some((file) => entry.urlStorageKey.includes(file.id)));
  if (waiting.length === 0) return null;
  const locale = language.htmlLang;
  return (
    <section className="unfinished" aria-labelledby="unfinished-title">
      <h2 className="unfinished__title" id="unfinished-title">
        {t('videos.unfinished.title')}
      </h2>
      <p className="unfinished__lead">{t('videos.unfinished.lead')}</p>
      <ul className="unfinished__list">
        {waiting.map((entry) => (
          <li key={entry.urlStorageKey} className="unfinished__item">
            <span className="unfinished__name">{entry.metadata.filename ?? '—'}</span>
            <span className="unfinished__meta">
              {[
                entry.size ? formatBytes(entry.size, locale) : '',
                new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(entry.creationTime)),
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
            <span className="unfinished__actions">
              <Button size="small" variant="secondary" onClick={onResume}>
                {t('videos.unfinished.resume')}
              </Button>
              <Button size="small" variant="transparent" onClick={() => void storage.removeUpload(entry.urlStorageKey).then(() => setVersion((n) => n + 1))}>
                {t('videos.unfinished.forget')}
              </Button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
