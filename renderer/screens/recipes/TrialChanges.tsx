import { useEffect, useState } from 'react';
import { useActions, useApp } from '../../store/context';

/**
 * In "Continue with the other N?": a trial from a recipe whose recipe (or the form holding it) has changed since is
 * said part by part before anything is spent. Continue runs what was tried — the batch keeps the tried settings —
 * never the changed recipe, so what was reviewed is what the rest gets.
 */
export function TrialChanges({ batchId }: { batchId: string }) {
  const trial = useApp((s) => s.trials[batchId]);
  const { trialChanges } = useActions();
  const [changes, setChanges] = useState<string[] | null>(null);
  useEffect(() => {
    let live = true;
    if (trial) void trialChanges(batchId).then((found) => { if (live) setChanges(found); });
    return () => { live = false; };
  }, [batchId, trial, trialChanges]);
  if (!trial) return null;
  if (changes === null) return <p className="muted" role="status">Checking recipe “{trial.name}” against what was tried…</p>;
  if (changes.length === 0) return <p className="muted">Recipe “{trial.name}”: unchanged since this trial.</p>;
  return (
    <div className="callout callout-warning" role="alert" aria-label="Changed since the trial">
      <p>Recipe “{trial.name}” changed since this trial:</p>
      <ul>{changes.map((c) => <li key={c}>{c}</li>)}</ul>
      <p>Continue runs the settings you tried and reviewed, not the changed ones. To use the changes, start a new batch from the recipe.</p>
    </div>
  );
}
