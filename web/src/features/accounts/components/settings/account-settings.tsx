import { useI18n } from '../../../../i18n/i18n-context';
import { QueryFallback } from '../../../../components/query-fallback';
import { useAccount } from '../../api/account-settings-api';
import { CloseSection } from './close-section';
import { DataSection } from './data-section';
import { DevicesSection } from './devices-section';
import { EmailSection } from './email-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import './settings.css';

/** The account page: who the user is to Loopcast, how they sign in, where they are signed in, their data, leaving. */
export function AccountSettings() {
  const { t } = useI18n();
  const account = useAccount();
  if (!account.data) {
    return <QueryFallback query={account} area="settings" retryLabel={t('streams.retry')} />;
  }
  const { user } = account.data;
  return (
    <div className="settings">
      <div className="settings__column">
        <ProfileSection key={`${user.displayName}|${user.language}`} user={user} />
        <EmailSection account={account.data} />
        <PasswordSection email={user.email} />
      </div>
      <div className="settings__column">
        <DevicesSection />
        <DataSection />
        <CloseSection />
      </div>
    </div>
  );
}
