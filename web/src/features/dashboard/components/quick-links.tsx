import { Link } from 'react-router';
import { Icon, type IconName } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { localizePath } from '../../../i18n/languages';
import './dashboard.css';

const links: { id: 'upload' | 'channel' | 'stream' | 'billing'; path: string; icon: IconName }[] = [
  { id: 'upload', path: '/app/videos', icon: 'upload' },
  { id: 'channel', path: '/app/channels', icon: 'youtube' },
  { id: 'stream', path: '/app/streams', icon: 'broadcast' },
  { id: 'billing', path: '/app/billing', icon: 'layers' },
];

/** The next steps, in the order a new user takes them. */
export function QuickLinks() {
  const { t, language } = useI18n();
  return (
    <section aria-labelledby="quick-links-title">
      <h2 className="dashboard__section-title" id="quick-links-title">
        {t('dashboard.quickLinks.title')}
      </h2>
      <ul className="quick-links">
        {links.map(({ id, path, icon }) => (
          <li key={id}>
            <Link className="quick-link" to={localizePath(path, language)}>
              <span className="feature__icon">
                <Icon name={icon} />
              </span>
              <span className="quick-link__text">
                <span className="quick-link__title">{t(`dashboard.quickLinks.${id}.title`)}</span>
                <span className="quick-link__body">{t(`dashboard.quickLinks.${id}.body`)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
