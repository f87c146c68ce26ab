import { EmptyState } from '../../components/EmptyState';
import { ScreenTitle } from '../../components/ScreenTitle';
import { percent, shortFolder } from '../../lib/format';
import { useActions, useApp } from '../../store/context';
import { BatchPanel } from './BatchPanel';
import { batchBadge, photos } from '../../../shared/engine/batch-badge';

export function QueueScreen() {
  const order = useApp((s) => s.batchOrder);
  const batches = useApp((s) => s.batches);
  const selectedId = useApp((s) => s.selectedBatchId);
  const { selectBatch, cancelAll, setView } = useActions();
  const selected = selectedId ? batches[selectedId] : undefined;
  const anyOpen = order.some((id) => batches[id]?.state === 'running' || batches[id]?.state === 'paused');

  if (order.length === 0) {
    return (
      <>
      <ScreenTitle hidden>Queue</ScreenTitle>
      <EmptyState
        title="The queue is empty"
        icon="☰"
        action={<button type="button" className="btn btn-primary" onClick={() => setView('workflows')}>Choose a workflow</button>}
      >
        Pick a workflow, drop your photos, and the batch appears here with live progress.
      </EmptyState>
      </>
    );
  }
  return (
    <div className="split split-narrow">
      <ScreenTitle hidden>Queue</ScreenTitle>
      <section className="batch-list" aria-label="Batches">
        <div className="list-head">
          <h2>Batches</h2>
          {anyOpen && <button type="button" className="btn btn-small" onClick={() => void cancelAll()}>Cancel all</button>}
        </div>
        <ul>
          {order.map((id) => {
            const b = batches[id]!;
            const badge = batchBadge(b);
            return (
              <li key={id}>
                <button type="button" className={`batch-card${id === selectedId ? ' is-selected' : ''}`} aria-pressed={id === selectedId} onClick={() => selectBatch(id)}>
                  <span className="batch-card-top">
                    <span className="workflow-name">{b.workflowName}</span>
                    <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
                  </span>
                  <span className={`progress progress-small progress-${badge.tone}`} aria-hidden="true"><span className="progress-fill" style={{ width: percent(badge.fill) }} /></span>
                  <span className="muted batch-card-meta">{photos(b.total)} · {new Date(b.createdAt).toLocaleString()}</span>
                  {/* Which photos: batches of one workflow (several CLI runs) were told apart by nothing else. */}
                  <span className="muted mono batch-card-folder" title={`Results in ${b.outputFolder}`}>{shortFolder(b.outputFolder)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      </section>
      {selected ? <BatchPanel batch={selected} /> : <EmptyState title="Select a batch">Choose a batch on the left to see its items.</EmptyState>}
    </div>
  );
}
