import { useI18n } from '../../../i18n/i18n-context';
import { TextField } from './text-field';

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  next?: string | undefined;
}

/** The account's e-mail address, as every account form asks for it (browser autofill, e-mail keyboard). */
export function EmailField({ value, onChange, error, next }: EmailFieldProps) {
  const { t } = useI18n();
  return (
    <TextField
      id="email"
      label={t('auth.fields.email')}
      type="email"
      name="email"
      autoComplete="email"
      inputMode="email"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      next={next}
    />
  );
}
