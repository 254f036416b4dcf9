import { Icon, type IconName } from './icon';

export function EmptyState({ icon, title, body }: { icon: IconName; title: string; body: string }) {
  return (
    <div className="empty-state">
      <span className="feature__icon feature__icon--large">
        <Icon name={icon} />
      </span>
      <h2 className="empty-state__title">{title}</h2>
      <p className="empty-state__body">{body}</p>
    </div>
  );
}
