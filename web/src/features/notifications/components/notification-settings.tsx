import { useCallback, useId } from 'react';
import { errorKeyOf } from '../../../api/client';
import { Button, buttonClasses } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { Spinner } from '../../../components/spinner';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { QueryFallback } from '../../../components/query-fallback';
import { timeFormat } from '../../../lib/format';
import { useEmailAlerts, useUnlinkTelegram, type Notifications, type TelegramLink } from '../api/notifications-api';
import { useNotificationSettings } from '../hooks/use-notification-settings';
import { minutesLeft, type LinkingState } from '../telegram-link';

/**
 * What Loopcast tells the creator without being asked, and how: by e-mail (on or off) and by Telegram once a chat is
 * linked. `email` is the account's address, where the e-mails go.
 */
export function NotificationSettings({ email }: { email: string | undefined }) {
  const { t } = useI18n();
  const onLinked = useCallback(() => showToast({ message: t('notifications.telegram.linkedToast'), tone: 'success' }), [t]);
  const { settings, linking } = useNotificationSettings(onLinked);

  if (!settings.data) {
    return <QueryFallback query={settings} area="notifications" retryLabel={t('notifications.retry')} />;
  }
  return (
    <div className="notifications">
      <AlertKinds />
      <div className="notifications__ways">
        <EmailAlerts settings={settings.data} email={email} />
        <TelegramAlerts settings={settings.data} linking={linking} />
      </div>
    </div>
  );
}

/** Which alerts there are. */
function AlertKinds() {
  const { t } = useI18n();
  const titleId = useId();
  return (
    <section className="notifications-card notifications-card--kinds" aria-labelledby={titleId}>
      <h2 id={titleId} className="notifications-card__title">
        {t('notifications.kinds.title')}
      </h2>
      <ul className="notifications-kinds">
        <li>{t('notifications.kinds.attention')}</li>
        <li>{t('notifications.kinds.trial')}</li>
        <li>{t('notifications.kinds.plan')}</li>
      </ul>
      <p className="notifications-card__note">{t('notifications.kinds.language')}</p>
    </section>
  );
}

function EmailAlerts({ settings, email }: { settings: Notifications; email: string | undefined }) {
  const { t, errorText } = useI18n();
  const ids = useId();
  const change = useEmailAlerts();
  // While the change is on its way the switch shows what was asked for.
  const on = change.isPending && change.variables !== undefined ? change.variables : settings.email;
  return (
    <section className="notifications-card" aria-labelledby={`${ids}-title`} data-channel="email">
      <h2 id={`${ids}-title`} className="notifications-card__title">
        <Icon name="mail" />
        {t('notifications.email.title')}
      </h2>
      <label className="notifications-switch">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={change.isPending}
          onChange={(event) => change.mutate(event.target.checked)}
          aria-describedby={`${ids}-state`}
        />
        <span>{t('notifications.email.label')}</span>
      </label>
      <p id={`${ids}-state`} className="notifications-card__state" role="status">
        {on ? (email ? t('notifications.email.onTo', { email }) : t('notifications.email.on')) : t('notifications.email.off')}
      </p>
      {change.isError && (
        <p className="notifications-card__error" role="alert">
          {errorText(errorKeyOf(change.error))}
        </p>
      )}
    </section>
  );
}

interface Linking {
  state: LinkingState;
  link: TelegramLink | undefined;
  now: number;
  open: () => void;
  starting: boolean;
  error: unknown;
}

function TelegramAlerts({ settings, linking }: { settings: Notifications; linking: Linking }) {
  const { t, errorText, language } = useI18n();
  const titleId = useId();
  const unlink = useUnlinkTelegram();
  const telegram = settings.telegram;
  const locale = language.htmlLang;

  let body;
  if (!telegram.available) {
    body = <p className="notifications-card__state">{t('notifications.telegram.unavailable')}</p>;
  } else if (telegram.linked) {
    body = (
      <>
        <p className="notifications-card__state notifications-card__state--on" role="status">
          <Icon name="check" />
          {telegram.linkedAt
            ? t('notifications.telegram.linkedSince', { date: new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(Date.parse(telegram.linkedAt)) })
            : t('notifications.telegram.linked')}
        </p>
        <div className="notifications-card__actions">
          <Button variant="secondary" loading={unlink.isPending} onClick={() => unlink.mutate()}>
            {t('notifications.telegram.unlink')}
          </Button>
        </div>
        {unlink.isError && (
          <p className="notifications-card__error" role="alert">
            {errorText(errorKeyOf(unlink.error))}
          </p>
        )}
      </>
    );
  } else if (linking.state === 'waiting' && linking.link) {
    const until = timeFormat(locale).format(Date.parse(linking.link.expiresAt));
    body = (
      <>
        <p className="notifications-card__state" role="status">
          {t('notifications.telegram.waiting')}
        </p>
        <p className="notifications-card__note">{t('notifications.telegram.expires', { count: minutesLeft(linking.link, linking.now), time: until })}</p>
        <div className="notifications-card__actions">
          <a className={buttonClasses({ variant: 'secondary' })} href={linking.link.link} target="_blank" rel="noopener noreferrer">
            <span className="button__label">
              <Icon name="send" />
              {t('notifications.telegram.openAgain')}
            </span>
          </a>
          <span className="notifications-card__waiting">
            <Spinner />
            {t('notifications.telegram.checking')}
          </span>
        </div>
      </>
    );
  } else {
    body = (
      <>
        <p className="notifications-card__state">{linking.state === 'expired' ? t('notifications.telegram.expired') : t('notifications.telegram.intro')}</p>
        <div className="notifications-card__actions">
          <Button loading={linking.starting} onClick={linking.open}>
            <span className="notifications-card__button-label">
              <Icon name="send" />
              {t('notifications.telegram.link')}
            </span>
          </Button>
        </div>
        {linking.error !== null && linking.error !== undefined && (
          <p className="notifications-card__error" role="alert">
            {errorText(errorKeyOf(linking.error))}
          </p>
        )}
      </>
    );
  }
  return (
    <section className="notifications-card" aria-labelledby={titleId} data-channel="telegram" data-linking={linking.state}>
      <h2 id={titleId} className="notifications-card__title">
        <Icon name="send" />
        {t('notifications.telegram.title')}
      </h2>
      {body}
    </section>
  );
}
