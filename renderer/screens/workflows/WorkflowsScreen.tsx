import { EmptyState } from '../../components/EmptyState';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ScreenTitle } from '../../components/ScreenTitle';
import { useRichT, useT } from '../../i18n';
import { selectCurrentDetail } from '../../store/catalog-slice';
import { useActions, useApp } from '../../store/context';
import { RecipeBar } from '../recipes/RecipeBar';
import { BatchSummaryDialog } from './BatchSummaryDialog';
import { CatalogList } from './CatalogList';
import { WorkflowForm } from './WorkflowForm';

export function WorkflowsScreen() {
  const t = useT('workflows');
  const tc = useT('common');
  const rt = useRichT('workflows');
  const detail = useApp(selectCurrentDetail);
  const selectedId = useApp((s) => s.selectedWorkflowId);
  const detailError = useApp((s) => s.detailError);
  const pending = useApp((s) => s.draft.paths.length);
  const { selectWorkflow } = useActions();

  return (
    <div className="split split-page">
      <ScreenTitle hidden>{tc('view.workflows')}</ScreenTitle>
      <CatalogList />
      <section className="detail" aria-label={t('WorkflowsScreen.workflow')}>
        <RecipeBar />
        {detailError && selectedId && <ErrorMessage error={detailError} onRetry={() => void selectWorkflow(selectedId)} />}
        {!selectedId && (
          <EmptyState title={t('WorkflowsScreen.pickTitle')} icon="◧">
            {t('WorkflowsScreen.pickText')}
            {pending > 0 && <p>{rt('WorkflowsScreen.waiting', { count: pending })}</p>}
          </EmptyState>
        )}
        {selectedId && !detail && !detailError && <p className="muted" role="status">{t('WorkflowsScreen.loading')}</p>}
        {detail && <WorkflowForm detail={detail} />}
      </section>
      <BatchSummaryDialog />
    </div>
  );
}
