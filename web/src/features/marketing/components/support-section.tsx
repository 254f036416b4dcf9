import { Icon, type IconName } from '../../../components/icon';
import { support } from '../../../config/support';
import { useI18n } from '../../../i18n/i18n-context';

export function SupportSection() {
  const { t } = useI18n();
  const channels: { icon: IconName; title: string; body: string; href: string; external: boolean }[] = [
    { icon: 'mail', title: t('landing.supportEmail'), body: t('landing.supportEmailBody', { address: support.email }), href: `mailto:${support.email}`, external: false },
    { icon: 'chat', title: t('landing.supportChat'), body: t('landing.supportChatBody'), href: support.chatUrl, external: true },
    { icon: 'send', title: t('landing.supportTelegram'), body: t('landing.supportTelegramBody'), href: support.telegramUrl, external: true },
  ];
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
          {channels.map((channel) => (
            <li key={channel.icon}>
              <a className="support-channel" href={channel.href} {...(channel.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
                <span className="feature__icon">
                  <Icon name={channel.icon} />
                </span>
                <span className="support-channel__title">{channel.title}</span>
                <span className="support-channel__body">{channel.body}</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
