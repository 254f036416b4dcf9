import { useRef, type ReactNode } from 'react';
import { Button, type ButtonSize } from '../../../components/button/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useI18n } from '../../../i18n/i18n-context';
import type { Stream } from '../api/streams-api';
import { isOnAir } from '../stream-display';

/**
 * Stop, on a stream's card, its page and the dashboard. A stream on air (isOnAir) asks first in a modal dialog ("Stop
 * “Lo-fi radio”? Viewers will see the broadcast end...", Keep streaming / Stop stream): one tap must not end a 24/7
 * broadcast. One still starting or waiting for its video stops at once: nobody sees it yet.
 */
export function StopStreamButton({
  stream,
  onStop,
  loading,
  size,
  label,
  children,
}: {
  stream: Pick<Stream, 'title' | 'status' | 'startedAt'>;
  onStop: () => void;
  loading: boolean;
  size?: ButtonSize;
  /** The button's accessible name when its text alone says too little (a list of streams). */
  label?: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const asks = isOnAir(stream);
  return (
    <>
      <Button
        variant="red"
        size={size}
        loading={loading}
        aria-label={label}
        aria-haspopup={asks ? 'dialog' : undefined}
        onClick={() => (asks ? dialog.current?.showModal() : onStop())}
      >
        {children}
      </Button>
      <ConfirmDialog
        ref={dialog}
        title={t('streams.stop.title', { title: stream.title })}
        confirmLabel={t('streams.stop.confirm')}
        cancelLabel={t('streams.stop.keep')}
        onConfirm={onStop}
      >
        <p>{t('streams.stop.body')}</p>
      </ConfirmDialog>
    </>
  );
}
