import { errorKeyOf } from '../../../../api/client';
import { Button } from '../../../../components/button/button';
import { Icon } from '../../../../components/icon';
import { useI18n } from '../../../../i18n/i18n-context';
import { useDevices, useSignOutDevice, useSignOutOthers, type DeviceView } from '../../api/account-settings-api';
import { FormAlert } from '../form-alert';
import { SettingsSection } from './settings-section';

const when = (iso: string, locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** "Chrome on Windows", or what is known of it. */
function useDeviceName(): (device: DeviceView['device']) => string {
  const { t } = useI18n();
  return ({ browser, os }) => {
    if (browser && os) return t('account.devices.browserOn', { browser, os });
    return browser ?? os ?? t('account.devices.unknown');
  };
}

function DeviceRow({ session }: { session: DeviceView }) {
  const { t, language } = useI18n();
  const name = useDeviceName()(session.device);
  const signOut = useSignOutDevice();
  const locale = language.htmlLang;
  return (
    <li className="device" data-current={session.current || undefined}>
      <span className="device__kind">
        <Icon name={session.device.mobile ? 'phone' : 'laptop'} />
      </span>
      <span className="device__text">
        <span className="device__name">
          {name}
          {session.current && <span className="device__current">{t('account.devices.current')}</span>}
        </span>
        <span className="device__facts">
          {t('account.devices.signedIn', { when: when(session.createdAt, locale) })}
          {session.lastUsedAt && ` · ${t('account.devices.lastUsed', { when: when(session.lastUsedAt, locale) })}`}
          {` · ${t('account.devices.ip', { ip: session.ip })}`}
        </span>
      </span>
      {!session.current && (
        <Button
          variant="secondary"
          size="small"
          loading={signOut.isPending}
          onClick={() => signOut.mutate(session.id)}
          aria-label={t('account.devices.signOutOne', { device: name })}
        >
          {t('auth.signOut')}
        </Button>
      )}
    </li>
  );
}

/** Where the account is signed in, and signing out everywhere but here. */
export function DevicesSection() {
  const { t, errorText } = useI18n();
  const devices = useDevices();
  const others = useSignOutOthers();
  const sessions = devices.data ?? [];
  const otherCount = sessions.filter((session) => !session.current).length;
  return (
    <SettingsSection name="devices" title={t('account.devices.title')} lead={t('account.devices.lead')}>
      {devices.isError && <FormAlert tone="error">{errorText(errorKeyOf(devices.error))}</FormAlert>}
      {others.isSuccess && <FormAlert tone="success">{t('account.devices.othersSignedOut', { count: others.data.sessionsEnded })}</FormAlert>}
      {others.isError && <FormAlert tone="error">{errorText(errorKeyOf(others.error))}</FormAlert>}
      <ul className="devices" aria-busy={devices.isPending}>
        {sessions.map((session) => (
          <DeviceRow key={session.id} session={session} />
        ))}
      </ul>
      <div className="settings-form__actions">
        <Button variant="secondary" disabled={otherCount === 0} loading={others.isPending} onClick={() => others.mutate()}>
          {t('account.devices.signOutOthers')}
        </Button>
        {devices.isSuccess && otherCount === 0 && <span className="settings-card__note">{t('account.devices.onlyThis')}</span>}
      </div>
    </SettingsSection>
  );
}
