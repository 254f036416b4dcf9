import { useI18n } from '../../../i18n/i18n-context';

const questions = ['what', 'pc', 'formats', 'restart', 'multistream', 'watermark', 'trial', 'cancel'] as const;

/** Eight questions as native disclosure widgets: keyboard and screen-reader friendly with no script. */
export function Faq() {
  const { t } = useI18n();
  return (
    <section id="faq" className="section section--tinted" aria-labelledby="faq-title">
      <div className="container container--narrow">
        <header className="section__header">
          <h2 id="faq-title" className="section__title">
            {t('faq.title')}
          </h2>
        </header>
        <div className="faq">
          {questions.map((question) => (
            <details key={question} className="faq__item">
              <summary className="faq__question">{t(`faq.items.${question}.question`)}</summary>
              <p className="faq__answer">{t(`faq.items.${question}.answer`)}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
