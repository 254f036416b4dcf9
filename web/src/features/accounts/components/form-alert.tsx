import type { ReactNode } from 'react';

/** A message about the whole form. Errors are announced (role=alert) and can take focus after a failed submit. */
export function FormAlert({ tone, children }: { tone: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`form-alert form-alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'} tabIndex={-1}>
      {children}
    </div>
  );
}
