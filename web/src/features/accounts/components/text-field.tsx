import type { InputHTMLAttributes, ReactNode } from 'react';
import './auth-forms.css';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: string;
  /** Shown under the field and read with it (aria-describedby). */
  hint?: ReactNode;
  error?: string;
  /** What to do about the error, in plain words beside the catalogue's message. */
  next?: string | undefined;
  /** Inside the field's box, after the input (a show-password button). */
  addon?: ReactNode;
}

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby) and announced with the field. */
export function TextField({ id, label, hint, error, next, addon, className, ...input }: TextFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={`form-field ${className ?? ''}`.trim()}>
      <label htmlFor={id} className="form-field__label">
        {label}
      </label>
      <div className="form-field__box">
        <input
          {...input}
          id={id}
          className="form-field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        />
        {addon}
      </div>
      {error && (
        <p id={errorId} className="form-field__error">
          {error}
          {next && <span className="form-field__next">{next}</span>}
        </p>
      )}
      {hint && (
        <div id={hintId} className="form-field__hint">
          {hint}
        </div>
      )}
    </div>
  );
}
