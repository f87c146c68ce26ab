import type { ReactNode } from 'react';
import { Dialog } from './Dialog';

/** "Are you sure?" with what it costs or loses, a safe way out (first, focused) and the action. */
export function ConfirmDialog({ title, children, confirmLabel, cancelLabel, onConfirm, onClose, danger = false }: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  danger?: boolean;
}) {
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" data-autofocus onClick={onClose}>{cancelLabel}</button>
          <button type="button" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} onClick={() => { onConfirm(); onClose(); }}>{confirmLabel}</button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
