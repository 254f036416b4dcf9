import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { LinkedText } from './linked-text';
import { ResendConfirmation } from './resend-confirmation';

/** After registering: where the confirmation link went, and a way to have it sent again. */
export function CheckInbox({ email }: { email: string }) {
  const { t } = useI18n();
  return (
    <div className="auth-done" role="status">
      <span className="feature__icon feature__icon--large">
        <Icon name="mail" />
      </span>
      <h2 className="auth-done__title">{t('auth.checkInbox.title')}</h2>
      <p>
        <LinkedText text={t('auth.checkInbox.body')} parts={{ email: <strong>{email}</strong> }} />
      </p>
      <p className="auth-done__note">{t('auth.checkInbox.noMail')}</p>
      <ResendConfirmation email={email} label={t('auth.checkInbox.resend')} />
    </div>
  );
}
