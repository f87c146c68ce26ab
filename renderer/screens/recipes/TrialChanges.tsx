import { useEffect, useState } from 'react';
import { useActions } from '../../store/context';
import { useT } from '../../i18n';

/**
 * In "Continue with the other N?": a trial from a recipe whose recipe (or the form holding it) has changed since is
 * said before anything is spent — part by part for a trial of this session, as a whole for one from before a
 * restart. Continue runs what was tried (the batch keeps the tried settings), never the changed recipe, so what was
 * reviewed is what the rest gets.
 */
export function TrialChanges({ batchId }: { batchId: string }) {
  const { trialChanges } = useActions();
  const t = useT('recipes');
  const [found, setFound] = useState<{ name: string; changes: string[] } | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void trialChanges(batchId).then((answer) => { if (live) setFound(answer); }, () => { if (live) setFound(null); });
    return () => { live = false; };
  }, [batchId, trialChanges]);
  if (found === undefined) return <p className="muted" role="status">{t('Trial.checking')}</p>;
  if (found === null) return null;
  if (found.changes.length === 0) return <p className="muted">{t('Trial.unchanged', { name: found.name })}</p>;
  return (
    <div className="callout callout-warning" role="alert" aria-label={t('Trial.changedLabel')}>
      <p>{t('Trial.changed', { name: found.name })}</p>
      <ul>{found.changes.map((c) => <li key={c}>{c}</li>)}</ul>
      <p>{t('Trial.continueRuns')}</p>
    </div>
  );
}
