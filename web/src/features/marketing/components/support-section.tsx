import { Icon, type IconName } from '../../../components/icon';
import { support, type SupportChannels } from '../../../config/support';
import { useI18n } from '../../../i18n/i18n-context';

/** The landing page's support section: the configured channels only, and no section at all without one. */
export function SupportSection({ channels = support }: { channels?: SupportChannels }) {
  const { t } = useI18n();
  const links: { icon: IconName; title: string; body: string; href: string; external: boolean }[] = [
    ...(channels.email
      ? [
          {
            icon: 'mail' as const,
            title: t('landing.supportEmail'),
            body: t('landing.supportEmailBody', { address: channels.email }),
            href: `mailto:${channels.email}`,
            external: false,
          },
        ]
      : []),
    ...(channels.chatUrl
      ? [{ icon: 'chat' as const, title: t('landing.supportChat'), body: t('landing.supportChatBody'), href: channels.chatUrl, external: true }]
      : []),
    ...(channels.telegramUrl
      ? [{ icon: 'send' as const, title: t('landing.supportTelegram'), body: t('landing.supportTelegramBody'), href: channels.telegramUrl, external: true }]
      : []),
  ];
  if (links.length === 0) return null;
  return (
    <section id="support" className="section" aria-labelledby="support-title">
      <div className="container">
        <header className="section__header">
          <h2 id="support-title" className="section__title">
            {t('landing.supportTitle')}
          </h2>
          <p className="section__lead">{t('landing.supportLead')}</p>
        </header>
        <ul className="support-channels">
          {links.map((link) => (
            <li key={link.icon}>
              <a className="support-channel" href={link.href} {...(link.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
                <span className="feature__icon">
                  <Icon name={link.icon} />
                </span>
                <span className="support-channel__title">{link.title}</span>
                <span className="support-channel__body">{link.body}</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
