import { useState } from 'react';
import type { ItemView } from '../../../shared/engine/model';
import { Dialog } from '../../components/Dialog';
import { formatCredits } from '../../lib/format';

const credits = formatCredits;

/**
 * Resubmitting an `unknown` item may pay twice, a `charged-no-result` one pays again for sure: the user must say so
 * (and sees the cost) before the button works.
 */
export function ResubmitDialog({ item, cost, onConfirm, onClose }: { item: ItemView; cost: number; onConfirm: () => void; onClose: () => void }) {
  const [understood, setUnderstood] = useState(false);
  const charged = item.state === 'charged-no-result';
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
      {charged ? (
        <>
          <p>
            <strong>{item.displayName}</strong> was edited and charged ({credits(item.creditsCharged)}), but the service no
            longer knows the execution, so its result cannot be fetched. Report it to the provider with the execution id
            below (the batch's "Report to provider" exports them all).
          </p>
          <p className="callout callout-warning">Sending it again costs {credits(cost)} more.</p>
        </>
      ) : (
        <>
          <p>
            <strong>{item.displayName}</strong> was sent to the service, but its answer was lost. The service may already
            have edited it and charged for it.
          </p>
          <p className="callout callout-warning">Resubmitting may charge this photo twice ({credits(cost)}).</p>
        </>
      )}
      {item.executionId && <p className="muted">Execution: <span className="mono">{item.executionId}</span></p>}
      <label className="inline-check">
        <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
        {charged ? `I understand this charges ${credits(cost)} again` : 'I understand this may be charged twice'}
      </label>
    </Dialog>
  );
}
