import { useState, type ReactNode } from 'react';
import type { ItemView } from '../../../shared/engine/model';
import { Dialog } from '../../components/Dialog';
import { useFormat, useT } from '../../i18n';

/** The photo's name in bold wherever the sentence puts it (languages place it differently). */
function emphasize(text: string, name: string): ReactNode {
  const at = name ? text.indexOf(name) : -1;
  if (at < 0) return text;
  return <>{text.slice(0, at)}<strong>{name}</strong>{text.slice(at + name.length)}</>;
}

/**
 * Resubmitting an `unknown` item may pay twice, a `charged-no-result` one pays again for sure: the user must say so
 * (and sees the cost) before the button works.
 */
export function ResubmitDialog({ item, cost, onConfirm, onClose }: { item: ItemView; cost: number; onConfirm: () => void; onClose: () => void }) {
  const t = useT('queue');
  const credits = useFormat().credits;
  const [understood, setUnderstood] = useState(false);
  const charged = item.state === 'charged-no-result';
  return (
    <Dialog
      title={t('ResubmitDialog.title')}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>{t('ResubmitDialog.keep')}</button>
          <button type="button" className="btn btn-danger" disabled={!understood} onClick={onConfirm}>{t('ResubmitDialog.resubmit')}</button>
        </>
      }
    >
      {charged ? (
        <>
          <p>{emphasize(t('ResubmitDialog.chargedBody', { name: item.displayName, credits: credits(item.creditsCharged) }), item.displayName)}</p>
          <p className="callout callout-warning">{t('ResubmitDialog.chargedCost', { credits: credits(cost) })}</p>
        </>
      ) : (
        <>
          <p>{emphasize(t('ResubmitDialog.unknownBody', { name: item.displayName }), item.displayName)}</p>
          <p className="callout callout-warning">{t('ResubmitDialog.unknownCost', { credits: credits(cost) })}</p>
        </>
      )}
      {item.executionId && <p className="muted">{t('ResubmitDialog.execution')} <span className="mono">{item.executionId}</span></p>}
      <label className="inline-check">
        <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
        {charged ? t('ResubmitDialog.understandCharged', { credits: credits(cost) }) : t('ResubmitDialog.understandTwice')}
      </label>
    </Dialog>
  );
}
