// Icons are symbols of one cached SVG sprite (assets/icons.svg), so they cost no JavaScript.
import sprite from '../assets/icons.svg?no-inline';

export type IconName =
  | 'loop'
  | 'youtube'
  | 'layers'
  | 'upload'
  | 'wand'
  | 'hd'
  | 'shield'
  | 'refresh'
  | 'calendar'
  | 'music'
  | 'grid'
  | 'file'
  | 'chat'
  | 'trash'
  | 'mail'
  | 'send'
  | 'check'
  | 'clock'
  | 'minus'
  | 'play'
  | 'dashboard'
  | 'video'
  | 'broadcast'
  | 'bell'
  | 'laptop'
  | 'phone'
  | 'user'
  | 'download'
  | 'alert'
  | 'stop';

export function Icon({ name, className = '' }: { name: IconName; className?: string }) {
  return (
    <svg className={`icon ${className}`} aria-hidden="true" focusable="false">
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}
