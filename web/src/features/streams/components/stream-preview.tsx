import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n-context';
import type { StreamPreview } from '../api/streams-api';
import { useNow } from '../hooks/use-now';
import { frameUrl } from '../stream-display';

const FRAME_REFRESH_MS = 60_000;
/** A live playlist can be missing for a moment (the first segment is still being written, the loop restarts). */
const RETRY_AFTER_MS = 3_000;

/** What the destination receives: the HLS output of the local test server, or the frame the task uploads each minute. */
export function StreamPreviewView({ preview, title }: { preview: StreamPreview; title: string }) {
  const { t } = useI18n();
  const label = t('streams.card.preview', { title });
  return (
    <figure className="stream-preview-box">
      {preview.kind === 'hls' ? <HlsPlayer url={preview.url} label={label} /> : <RefreshedFrame url={preview.url} label={label} />}
    </figure>
  );
}

/** hls.js is loaded only when a preview plays (a chunk of its own); Safari plays HLS by itself. */
function HlsPlayer({ url, label }: { url: string; label: string }) {
  const { t } = useI18n();
  const video = useRef<HTMLVideoElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let closed = false;
    let player: { destroy(): void } | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    import('hls.js/light')
      .then(({ default: Hls }) => {
        if (closed) return;
        if (Hls.isSupported()) {
          // No worker: the Content-Security-Policy allows scripts from our origin only, not blob: workers.
          const hls = new Hls({ enableWorker: false, liveSyncDurationCount: 2 });
          hls.on(Hls.Events.ERROR, (_event, data) => {
            if (!data.fatal) return;
            hls.destroy();
            retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_AFTER_MS);
          });
          hls.loadSource(url);
          hls.attachMedia(element);
          player = hls;
        } else {
          element.src = url;
        }
        // Muted autoplay is allowed everywhere; if a browser still refuses, the controls remain.
        element.play().catch(() => undefined);
      })
      .catch(() => setUnavailable(true));
    return () => {
      closed = true;
      clearTimeout(retry);
      player?.destroy();
    };
  }, [url, attempt]);

  if (unavailable) return <p className="stream-preview-box__note">{t('streams.card.previewUnavailable')}</p>;
  return <video ref={video} className="stream-preview-box__media" muted autoPlay playsInline controls aria-label={label} />;
}

function RefreshedFrame({ url, label }: { url: string; label: string }) {
  const minute = Math.floor(useNow(FRAME_REFRESH_MS) / FRAME_REFRESH_MS);
  return <img className="stream-preview-box__media" src={frameUrl(url, minute)} alt={label} />;
}
