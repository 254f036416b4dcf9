import { Link, type LoaderFunctionArgs, type MetaArgs } from 'react-router';
import { buttonClasses } from '../../../components/button/button';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { languageOfPath, localizePath } from '../../../i18n/languages';
import { messagesFor } from '../../../i18n/messages.server';
import { pageMeta } from '../../page-meta';
import { pagePath } from '../../page-path';

export async function loader({ request }: LoaderFunctionArgs) {
  return { messages: await messagesFor(languageOfPath(pagePath(request)).code, ['soon']) };
}

export const meta = (args: MetaArgs) => pageMeta(args, 'meta.soonTitle');
export const handle = { pageName: 'soon' };

export default function SoonPage() {
  const { t, language } = useI18n();
  return (
    <section className="page-hero page-hero--centered" aria-labelledby="soon-title">
      <div className="container container--narrow">
        <span className="feature__icon feature__icon--large">
          <Icon name="clock" />
        </span>
        <h1 id="soon-title" className="page-hero__title">
          {t('soon.title')}
        </h1>
        <p className="page-hero__lead">{t('soon.body')}</p>
        <Link to={localizePath('/app/auth/register', language)} className={buttonClasses({ size: 'large' })}>
          {t('soon.cta')}
        </Link>
      </div>
    </section>
  );
}
