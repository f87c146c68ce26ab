import { useEffect, useState } from 'react';
import { useActions } from '../../store/context';

/**
 * In "Continue with the other N?": a trial from a recipe whose recipe (or the form holding it) has changed since is
 * said before anything is spent — part by part for a trial of this session, as a whole for one from before a
 * restart. Continue runs what was tried (the batch keeps the tried settings), never the changed recipe, so what was
 * reviewed is what the rest gets.
 */
export function TrialChanges({ batchId }: { batchId: string }) {
  const { trialChanges } = useActions();
  const [found, setFound] = useState<{ name: string; changes: string[] } | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void trialChanges(batchId).then((answer) => { if (live) setFound(answer); }, () => { if (live) setFound(null); });
    return () => { live = false; };
  }, [batchId, trialChanges]);
  if (found === undefined) return <p className="muted" role="status">Checking the settings against what was tried…</p>;
  if (found === null) return null;
  if (found.changes.length === 0) return <p className="muted">Recipe “{found.name}”: unchanged since this trial.</p>;
  return (
    <div className="callout callout-warning" role="alert" aria-label="Changed since the trial">
      <p>Recipe “{found.name}” changed since this trial:</p>
      <ul>{found.changes.map((c) => <li key={c}>{c}</li>)}</ul>
      <p>Continue runs the settings you tried and reviewed, not the changed ones. To use the changes, start a new batch from the recipe.</p>
    </div>
  );
}
