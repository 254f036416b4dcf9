import type { ReactNode } from 'react';
import { Icon, type IconName } from './icon';

/** A page with nothing to show yet: what will be here, and (as `children`) the buttons that get there. */
export function EmptyState({ icon, title, body, children }: { icon: IconName; title: string; body: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <span className="feature__icon feature__icon--large">
        <Icon name={icon} />
      </span>
      <h2 className="empty-state__title">{title}</h2>
      <p className="empty-state__body">{body}</p>
      {children && <div className="empty-state__actions">{children}</div>}
    </div>
  );
}
