import { useMemo } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatCredits } from '../../lib/format';
import { filterWorkflows, selectAllTags } from '../../store/catalog-slice';
import { useActions, useApp } from '../../store/context';

export function CatalogList() {
  const workflows = useApp((s) => s.workflows);
  const loaded = useApp((s) => s.workflowsLoaded);
  const error = useApp((s) => s.workflowsError);
  const warning = useApp((s) => s.workflowsWarning);
  const tag = useApp((s) => s.tagFilter);
  const search = useApp((s) => s.search);
  const selectedId = useApp((s) => s.selectedWorkflowId);
  const { setTagFilter, setSearch, selectWorkflow, loadWorkflows } = useActions();
  const tags = useMemo(() => selectAllTags({ workflows }), [workflows]);
  const visible = useMemo(() => filterWorkflows(workflows, tag, search), [workflows, tag, search]);

  return (
    <section className="catalog" aria-label="Workflow catalog">
      <div className="catalog-tools">
        <input
          type="search"
          className="input"
          placeholder="Search workflows"
          aria-label="Search workflows"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {tags.length > 0 && (
          <div className="chip-row" role="group" aria-label="Filter by tag">
            <button type="button" className="chip" aria-pressed={tag === null} onClick={() => setTagFilter(null)}>All</button>
            {tags.map((t) => (
              <button key={t} type="button" className="chip" aria-pressed={tag === t} onClick={() => setTagFilter(tag === t ? null : t)}>
                {t}
              </button>
            ))}
          </div>
        )}
      </div>
      {error && <ErrorMessage error={error} onRetry={() => void loadWorkflows()} />}
      {warning && !error && <p className="callout callout-warning" role="status">{warning}</p>}
      {!loaded && !error && <p className="muted" role="status">Loading workflows…</p>}
      {loaded && !error && workflows.length === 0 && (
        <EmptyState title="No workflows yet">The service lists no workflows. Check the service URL in Settings.</EmptyState>
      )}
      {loaded && workflows.length > 0 && visible.length === 0 && (
        <EmptyState title="Nothing matches" action={<button type="button" className="btn" onClick={() => { setSearch(''); setTagFilter(null); }}>Clear filters</button>}>
          No workflow matches “{search}”{tag ? ` with the tag ${tag}` : ''}.
        </EmptyState>
      )}
      <ul className="workflow-list" aria-label="Workflows">
        {visible.map((w) => (
          <li key={w.id}>
            <button
              type="button"
              className={`workflow-card${w.id === selectedId ? ' is-selected' : ''}`}
              aria-pressed={w.id === selectedId}
              aria-label={`${w.name}, ${formatCredits(w.creditCost)} per photo`}
              onClick={() => void selectWorkflow(w.id)}
            >
              <span className="workflow-card-top">
                <span className="workflow-name">{w.name}</span>
                <span className="cost-pill">{formatCredits(w.creditCost)}</span>
              </span>
              <span className="workflow-desc">{w.description}</span>
              <span className="tag-row">{w.tags.map((t) => <span key={t} className="tag">{t}</span>)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
