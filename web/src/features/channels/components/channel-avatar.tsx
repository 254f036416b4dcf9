import { useState } from 'react';

/** A YouTube channel's picture, or its initial when it has none or the picture cannot be loaded. */
export function ChannelAvatar({ url, name }: { url: string | undefined; name: string }) {
  const [failed, setFailed] = useState(false);
  if (url && !failed) {
    return <img className="dest-avatar" src={url} alt="" width={44} height={44} referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
  }
  return (
    <span className="dest-avatar dest-avatar--initial" aria-hidden="true">
      {[...name.trim()][0]?.toUpperCase() ?? '?'}
    </span>
  );
}
