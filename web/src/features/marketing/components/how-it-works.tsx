import { useI18n } from '../../../i18n/i18n-context';

const steps = ['upload', 'connect', 'configure', 'live'] as const;

export function HowItWorks() {
  const { t } = useI18n();
  return (
    <section id="how-to-use" className="section section--tinted" aria-labelledby="how-title">
      <div className="container">
        <header className="section__header">
          <h2 id="how-title" className="section__title">
            {t('landing.howTitle')}
          </h2>
          <p className="section__lead">{t('landing.howLead')}</p>
        </header>
        <ol className="steps">
          {steps.map((step, index) => (
            <li key={step} className="step">
              <span className="step__number" aria-hidden="true">
                {index + 1}
              </span>
              <p className="visually-hidden">{t('landing.stepLabel', { number: index + 1 })}</p>
              <h3 className="step__title">{t(`landing.steps.${step}.title`)}</h3>
              <p className="step__body">{t(`landing.steps.${step}.body`)}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
