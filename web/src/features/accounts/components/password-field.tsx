import { useState } from 'react';
import { Icon } from '../../../components/icon';
import { useI18n } from '../../../i18n/i18n-context';
import { PASSWORD_MIN_DISTINCT, PASSWORD_MIN_LENGTH, passwordRules, type PasswordRule } from '../password-rules';
import { TextField } from './text-field';

interface PasswordFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  error?: string | undefined;
  next?: string | undefined;
  /** New passwords: the rules, checked as the user types; with the account's e-mail when it is known. */
  rulesFor?: { email?: string };
}

function RuleList({ password, email }: { password: string; email: string | undefined }) {
  const { t } = useI18n();
  const met = passwordRules(password, email ?? '');
  const texts: Partial<Record<PasswordRule, string>> = {
    length: t('auth.passwordRules.length', { count: PASSWORD_MIN_LENGTH }),
    distinct: t('auth.passwordRules.distinct', { count: PASSWORD_MIN_DISTINCT }),
    ...(email === undefined ? {} : { notEmail: t('auth.passwordRules.notEmail') }),
  };
  return (
    <div className="password-rules">
      <p className="password-rules__title">{t('auth.passwordRules.title')}</p>
      <ul className="password-rules__list">
        {(Object.keys(texts) as PasswordRule[]).map((rule) => {
          const done = met[rule] && password !== '';
          return (
            <li key={rule} className={`password-rules__rule ${done ? 'password-rules__rule--met' : ''}`}>
              <Icon name={done ? 'check' : 'minus'} />
              <span>{texts[rule]}</span>
              {done && <span className="visually-hidden">{t('auth.passwordRules.met')}</span>}
            </li>
          );
        })}
        <li className="password-rules__rule">
          <Icon name="shield" />
          <span>{t('auth.passwordRules.common')}</span>
        </li>
      </ul>
    </div>
  );
}

export function PasswordField({ id, label, value, onChange, autoComplete, error, next, rulesFor }: PasswordFieldProps) {
  const { t } = useI18n();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      id={id}
      label={label}
      type={visible ? 'text' : 'password'}
      name={id}
      autoComplete={autoComplete}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      next={next}
      hint={rulesFor ? <RuleList password={value} email={rulesFor.email} /> : undefined}
      addon={
        <button type="button" className="form-field__toggle" aria-pressed={visible} aria-controls={id} onClick={() => setVisible((shown) => !shown)}>
          {visible ? t('auth.fields.hidePassword') : t('auth.fields.showPassword')}
        </button>
      }
    />
  );
}
