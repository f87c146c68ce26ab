import { useState } from 'react';
import type { ItemView } from '../../../shared/engine/model';
import { Dialog } from '../../components/Dialog';

/** Resubmitting an `unknown` item may pay twice: the user must say so before the button works. */
export function ResubmitDialog({ item, onConfirm, onClose }: { item: ItemView; onConfirm: () => void; onClose: () => void }) {
  const [understood, setUnderstood] = useState(false);
  return (
    <Dialog
      title="Resubmit this photo?"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>Keep as is</button>
          <button type="button" className="btn btn-danger" disabled={!understood} onClick={onConfirm}>Resubmit</button>
        </>
      }
    >
      <p>
        <strong>{item.displayName}</strong> was sent to the service, but its answer was lost. The service may already
        have edited it and charged for it.
      </p>
      <p className="callout callout-warning">Resubmitting may charge this photo twice.</p>
      {item.executionId && <p className="muted">Execution: <span className="mono">{item.executionId}</span></p>}
      <label className="inline-check">
        <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
        I understand this may be charged twice
      </label>
    </Dialog>
  );
}
