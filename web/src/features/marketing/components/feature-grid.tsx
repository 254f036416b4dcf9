import type { IconName } from '../../../components/icon';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import type { Messages } from '../../../i18n/catalogue';

// The capabilities of spec section 1, in the order a creator weighs them; `soon` ones carry a badge.
const capabilities: { key: keyof Messages['landing']['features']; icon: IconName; soon?: boolean }[] = [
  { key: 'loop', icon: 'loop' },
  { key: 'youtube', icon: 'youtube' },
  { key: 'autoRestart', icon: 'refresh' },
  { key: 'noWatermark', icon: 'shield' },
  { key: 'fullHd', icon: 'hd' },
  { key: 'resumable', icon: 'upload' },
  { key: 'transcoding', icon: 'wand' },
  { key: 'multistream', icon: 'layers' },
  { key: 'splitAudio', icon: 'music' },
  { key: 'formats', icon: 'file' },
  { key: 'control', icon: 'trash' },
  { key: 'support', icon: 'chat' },
  { key: 'scheduled', icon: 'calendar', soon: true },
  { key: 'multiplatform', icon: 'grid' },
];

export function FeatureGrid() {
  const { t } = useI18n();
  return (
    <section id="features" className="section" aria-labelledby="features-title">
      <div className="container">
        <header className="section__header">
          <h2 id="features-title" className="section__title">
            {t('landing.featuresTitle')}
          </h2>
          <p className="section__lead">{t('landing.featuresLead')}</p>
        </header>
        <ul className="feature-grid">
          {capabilities.map(({ key, icon, soon }) => (
            <li key={key} className="feature">
              <span className="feature__icon">
                <Icon name={icon} />
              </span>
              <h3 className="feature__title">
                {t(`landing.features.${key}.title`)}
                {soon && <span className="tag">{t('common.soon')}</span>}
              </h3>
              <p className="feature__body">{t(`landing.features.${key}.body`)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
