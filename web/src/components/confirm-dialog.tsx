import { useId, type ReactNode, type Ref } from 'react';
import { Button } from './button/button';

/**
 * A question before an action that cannot be taken back, as a modal <dialog> (open it with `showModal()` through
 * `ref`): the browser keeps the focus inside, Escape closes it, and the focus returns to the button that opened it.
 * The way back comes first, so it has the focus when the dialog opens; the action is red. Styles: `.confirm-dialog`
 * in styles/app-shell.css.
 */
export function ConfirmDialog({
  ref,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
}: {
  ref?: Ref<HTMLDialogElement>;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const close = (event: { currentTarget: HTMLElement }) => event.currentTarget.closest('dialog')?.close();
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby={titleId} aria-describedby={bodyId}>
      <h2 className="confirm-dialog__title" id={titleId}>
        {title}
      </h2>
      <div id={bodyId}>{children}</div>
      <div className="confirm-dialog__actions">
        <Button variant="secondary" onClick={close}>
          {cancelLabel}
        </Button>
        <Button
          variant="red"
          onClick={(event) => {
            close(event);
            onConfirm();
          }}
        >
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
