import { EmptyState } from '../../components/EmptyState';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ScreenTitle } from '../../components/ScreenTitle';
import { selectCurrentDetail } from '../../store/catalog-slice';
import { useActions, useApp } from '../../store/context';
import { RecipeBar } from '../recipes/RecipeBar';
import { BatchSummaryDialog } from './BatchSummaryDialog';
import { CatalogList } from './CatalogList';
import { WorkflowForm } from './WorkflowForm';

export function WorkflowsScreen() {
  const detail = useApp(selectCurrentDetail);
  const selectedId = useApp((s) => s.selectedWorkflowId);
  const detailError = useApp((s) => s.detailError);
  const pending = useApp((s) => s.draft.paths.length);
  const { selectWorkflow } = useActions();

  return (
    <div className="split split-page">
      <ScreenTitle hidden>Workflows</ScreenTitle>
      <CatalogList />
      <section className="detail" aria-label="Workflow">
        <RecipeBar />
        {detailError && selectedId && <ErrorMessage error={detailError} onRetry={() => void selectWorkflow(selectedId)} />}
        {!selectedId && (
          <EmptyState title="Pick a workflow to begin" icon="◧">
            Choose an edit on the left. Its settings appear here; then drop your photos anywhere on the window.
            {pending > 0 && <p><strong>{pending}</strong> {pending === 1 ? 'item is' : 'items are'} waiting for a workflow.</p>}
          </EmptyState>
        )}
        {selectedId && !detail && !detailError && <p className="muted" role="status">Loading…</p>}
        {detail && <WorkflowForm detail={detail} />}
      </section>
      <BatchSummaryDialog />
    </div>
  );
}
