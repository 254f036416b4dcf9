import { EmptyState } from '../../components/empty-state';
import type { IconName } from '../../components/icon';
import { useI18n } from '../../i18n/i18n-context';

export type AppPageName = 'dashboard' | 'streams' | 'channels' | 'videos';

/** An app page's heading with its explanation for when there is nothing yet; the features fill the pages in. */
export function AppPage({ page, icon }: { page: AppPageName; icon: IconName }) {
  const { t } = useI18n();
  return (
    <>
      <header className="app-page__header">
        <h1 className="app-page__title">{t(`app.pages.${page}.title`)}</h1>
      </header>
      <EmptyState icon={icon} title={t(`app.pages.${page}.emptyTitle`)} body={t(`app.pages.${page}.emptyBody`)} />
    </>
  );
}
