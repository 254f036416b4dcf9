import type { InputHTMLAttributes, ReactNode } from 'react';

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  id: string;
  label: ReactNode;
  error?: string;
}

export function CheckboxField({ id, label, error, ...input }: CheckboxFieldProps) {
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="checkbox-field">
      <input {...input} id={id} type="checkbox" className="checkbox-field__input" aria-invalid={error ? true : undefined} aria-describedby={errorId} />
      <label htmlFor={id} className="checkbox-field__label">
        {label}
      </label>
      {error && (
        <p id={errorId} className="form-field__error checkbox-field__error">
          {error}
        </p>
      )}
    </div>
  );
}
