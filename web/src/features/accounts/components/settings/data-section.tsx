import { errorKeyOf } from '../../../../api/client';
import { Button } from '../../../../components/button/button';
import { Icon } from '../../../../components/icon';
import { useI18n } from '../../../../i18n/i18n-context';
import { useDownloadAccountData } from '../../api/account-settings-api';
import { FormAlert } from '../form-alert';
import { SettingsSection } from './settings-section';

/** A copy of what Loopcast holds about the account, as one JSON file. */
export function DataSection() {
  const { t, errorText } = useI18n();
  const download = useDownloadAccountData();
  return (
    <SettingsSection name="data" title={t('account.data.title')} lead={t('account.data.lead')}>
      {download.isError && <FormAlert tone="error">{errorText(errorKeyOf(download.error))}</FormAlert>}
      <div className="settings-form__actions">
        <Button variant="secondary" loading={download.isPending} onClick={() => download.mutate()}>
          <Icon name="download" />
          {t('account.data.download')}
        </Button>
      </div>
    </SettingsSection>
  );
}
