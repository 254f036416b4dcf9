import { useId, type ReactNode } from 'react';

/** One card of the account page: a heading, what it is for, and its form or list. */
export function SettingsSection({
  title,
  lead,
  tone,
  children,
  name,
}: {
  title: string;
  lead?: ReactNode;
  tone?: 'danger';
  name: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className={`settings-card${tone ? ` settings-card--${tone}` : ''}`} aria-labelledby={headingId} data-section={name}>
      <h2 id={headingId} className="settings-card__title">
        {title}
      </h2>
      {lead && <p className="settings-card__lead">{lead}</p>}
      {children}
    </section>
  );
}
