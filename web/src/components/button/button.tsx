// The shared button (spec section 4): variants, sizes, disabled, loading (a spinner replaces the label, aria-busy),
// full width, and a visible focus ring (styles/app.css, .button). `buttonClasses` gives links the same look.
import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from '../spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'transparent' | 'red' | 'dashed';
export type ButtonSize = 'large' | 'regular' | 'small';

export interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  fullWidth?: boolean;
}

export const buttonClasses = ({ variant = 'primary', size = 'regular', fullWidth = false }: ButtonLook = {}, extra = ''): string =>
  ['button', `button--${variant}`, `button--${size}`, fullWidth ? 'button--full' : '', extra].filter(Boolean).join(' ');

export interface ButtonProps extends ButtonLook, ButtonHTMLAttributes<HTMLButtonElement> {
  loading?: boolean;
}

export function Button({ variant, size, fullWidth, loading = false, disabled, className, children, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={buttonClasses({ variant, size, fullWidth }, `${loading ? 'button--loading' : ''} ${className ?? ''}`.trim())}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {/* The label stays in the layout (invisible) so the button keeps its width and its accessible name. */}
      <span className="button__label">{children}</span>
      {loading && <Spinner className="button__spinner" />}
    </button>
  );
}
