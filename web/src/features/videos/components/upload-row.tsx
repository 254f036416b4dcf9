import { Link } from 'react-router';
import type { ErrorTextKey } from '../../../i18n/i18n-context';
import { Button } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { formatBytes } from '../../../lib/format';
import type { UploadFile, Uploader } from '../uploader';

/** Refusals the plan page resolves (a plan, a payment, room), with what to do in plain words: trying the same
 * upload again cannot help, so they get no "Try again". */
const planProblems = {
  'no active subscription': 'noPlan',
  'no valid payment': 'payment',
  'video upload limit': 'uploads',
  'storage limit': 'storage',
} as const satisfies Partial<Record<ErrorTextKey, string>>;
const planProblemOf = (key: ErrorTextKey | undefined) => (key && key in planProblems ? planProblems[key as keyof typeof planProblems] : undefined);

/** One file on its way up: progress, pause and resume, cancel, or the translated reason it failed and a retry. */
export function UploadRow({ file, uploader, planLink }: { file: UploadFile; uploader: Uploader; planLink: string }) {
  const { t, errorText, language } = useI18n();
  const locale = language.htmlLang;
  const { bytesUploaded, uploadComplete } = file.progress;
  const total = file.size ?? 0;
  const percent = total > 0 ? Math.floor(((bytesUploaded || 0) / total) * 100) : 0;
  const failure = file.meta.failure;
  const planProblem = planProblemOf(failure);
  const state = failure ? 'failed' : uploadComplete ? 'complete' : file.isPaused ? 'paused' : 'uploading';
  const status = {
    failed: failure ? errorText(failure) : '',
    complete: t('videos.upload.complete'),
    paused: t('videos.upload.paused', { uploaded: formatBytes(bytesUploaded || 0, locale), total: formatBytes(total, locale) }),
    uploading: t('videos.upload.progress', {
      percent: new Intl.NumberFormat(locale, { style: 'percent' }).format(percent / 100),
      uploaded: formatBytes(bytesUploaded || 0, locale),
      total: formatBytes(total, locale),
    }),
  }[state];
  return (
    <li className={`upload-row upload-row--${state}`} data-state={state}>
      <span className="upload-row__icon">
        <Icon name={file.meta.kind === 'audio' ? 'music' : 'video'} />
      </span>
      <div className="upload-row__main">
        <p className="upload-row__name">{file.name}</p>
        <progress
          className="upload-row__bar"
          max={100}
          value={uploadComplete ? 100 : percent}
          aria-label={t('videos.upload.progressLabel', { name: file.name ?? '' })}
        />
        <p className={`upload-row__status ${failure ? 'upload-row__status--failed' : ''}`} role={failure ? 'alert' : undefined}>
          {status}
        </p>
        {planProblem && (
          <p className="upload-row__next">
            {t(`videos.blocked.${planProblem}`)}{' '}
            <Link className="upload-row__plans" to={planLink}>
              {t('videos.upload.seePlans')}
            </Link>
          </p>
        )}
      </div>
      <div className="upload-row__actions">
        {failure && !planProblem && (
          <Button variant="secondary" size="small" onClick={() => void uploader.retryUpload(file.id)}>
            {t('videos.upload.retry')}
          </Button>
        )}
        {!failure && !uploadComplete && (
          <Button variant="secondary" size="small" onClick={() => uploader.pauseResume(file.id)}>
            {file.isPaused ? t('videos.upload.resume') : t('videos.upload.pause')}
          </Button>
        )}
        {!uploadComplete && (
          <Button variant="transparent" size="small" onClick={() => uploader.removeFile(file.id)}>
            {planProblem ? t('videos.upload.dismiss') : t('videos.upload.cancel')}
          </Button>
        )}
      </div>
    </li>
  );
}
