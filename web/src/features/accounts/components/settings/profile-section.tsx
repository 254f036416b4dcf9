import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../../components/button/button';
import { useI18n } from '../../../../i18n/i18n-context';
import { languageByCode, languages, localizePath, type LanguageCode } from '../../../../i18n/languages';
import { saveLanguageChoice } from '../../../../i18n/locale-cookie';
import { useUpdateProfile } from '../../api/account-settings-api';
import type { PublicUser } from '../../api/accounts-api';
import { formProblemsOf } from '../../form-errors';
import { useFormProblems, useProblemText } from '../../hooks/use-form-problems';
import { FormAlert } from '../form-alert';
import { FormProblemAlert } from '../form-problem-alert';
import { TextField } from '../text-field';
import { SettingsSection } from './settings-section';

/**
 * The name the app and e-mails greet the user by, and the language of e-mails. Choosing another language also
 * opens this page in it (the app's language is the page's), and remembers the choice like the language switcher.
 */
export function ProfileSection({ user }: { user: PublicUser }) {
  const { t, language } = useI18n();
  const navigate = useNavigate();
  // Saving another language opens this page anew in it; the new page says it was saved.
  const savedBefore = (useLocation().state as { saved?: string } | null)?.saved === 'profile';
  const problemText = useProblemText();
  const { formRef, problems, fail, clear } = useFormProblems<'displayName'>();
  const [displayName, setDisplayName] = useState(user.displayName);
  const [code, setCode] = useState<LanguageCode>(user.language);
  const update = useUpdateProfile();
  const changed = displayName.trim() !== user.displayName || code !== user.language;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!displayName.trim()) return fail({ fields: { displayName: 'missing' } });
    clear();
    update.mutate(
      { ...(displayName.trim() !== user.displayName ? { displayName: displayName.trim() } : {}), ...(code !== user.language ? { language: code } : {}) },
      {
        onSuccess: ({ user: saved }) => {
          if (saved.language === language.code) return;
          saveLanguageChoice(saved.language);
          void navigate(localizePath('/app/account', languageByCode(saved.language)), { state: { saved: 'profile' } });
        },
        onError: (error) => fail(formProblemsOf(error, ['displayName'])),
      },
    );
  }

  return (
    <SettingsSection name="profile" title={t('account.profile.title')} lead={t('account.profile.lead')}>
      <form ref={formRef} className="settings-form" noValidate onSubmit={submit}>
        {(update.isSuccess || savedBefore) && !changed && <FormAlert tone="success">{t('account.profile.saved')}</FormAlert>}
        <FormProblemAlert problem={problems.form} retryAfterSeconds={problems.retryAfterSeconds} />
        <TextField
          id="account-name"
          label={t('account.profile.name')}
          value={displayName}
          maxLength={80}
          autoComplete="name"
          onChange={(event) => setDisplayName(event.target.value)}
          error={problemText('displayName', problems.fields.displayName)}
        />
        <div className="form-field">
          <label htmlFor="account-language" className="form-field__label">
            {t('account.profile.language')}
          </label>
          <div className="form-field__box">
            <select
              id="account-language"
              className="form-field__input"
              value={code}
              aria-describedby="account-language-hint"
              onChange={(event) => setCode(event.target.value as LanguageCode)}
            >
              {languages.map((option) => (
                <option key={option.code} value={option.code} lang={option.htmlLang}>
                  {option.name}
                </option>
              ))}
            </select>
          </div>
          <p id="account-language-hint" className="form-field__hint">
            {t('account.profile.languageHint')}
          </p>
        </div>
        <div className="settings-form__actions">
          <Button type="submit" loading={update.isPending} disabled={!changed}>
            {t('account.profile.submit')}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
