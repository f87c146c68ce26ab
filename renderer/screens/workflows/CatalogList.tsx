import { useId, useMemo } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { ErrorMessage } from '../../components/ErrorMessage';
import { RadioGroup } from '../../components/RadioGroup';
import { useFormat, useT } from '../../i18n';
import { filterWorkflows, selectAllTags } from '../../store/catalog-slice';
import { useActions, useApp } from '../../store/context';

export function CatalogList() {
  const t = useT('workflows');
  const format = useFormat();
  const workflows = useApp((s) => s.workflows);
  const loaded = useApp((s) => s.workflowsLoaded);
  const error = useApp((s) => s.workflowsError);
  const warning = useApp((s) => s.workflowsWarning);
  const tag = useApp((s) => s.tagFilter);
  const search = useApp((s) => s.search);
  const selectedId = useApp((s) => s.selectedWorkflowId);
  const { setTagFilter, setSearch, selectWorkflow, loadWorkflows } = useActions();
  const tags = useMemo(() => selectAllTags({ workflows }), [workflows]);
  const listId = useId();
  const visible = useMemo(() => filterWorkflows(workflows, tag, search), [workflows, tag, search]);

  return (
    <section className="catalog" aria-label={t('CatalogList.catalog')}>
      <div className="catalog-tools">
        <input
          type="search"
          className="input"
          placeholder={t('CatalogList.search')}
          aria-label={t('CatalogList.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {/* One tag at a time, so a radio group: one Tab stop instead of one per tag on the way to the cards. */}
        {tags.length > 0 && (
          <RadioGroup
            label={t('CatalogList.filterByTag')}
            className="chip-row"
            optionClassName="chip"
            value={tag}
            onChange={setTagFilter}
            options={[{ value: null, content: t('CatalogList.all') }, ...tags.map((tag) => ({ value: tag, content: tag }))]}
          />
        )}
      </div>
      {error && <ErrorMessage error={error} onRetry={() => void loadWorkflows()} />}
      {warning && !error && <p className="callout callout-warning" role="status">{warning}</p>}
      {!loaded && !error && <p className="muted" role="status">{t('CatalogList.loading')}</p>}
      {loaded && !error && workflows.length === 0 && (
        <EmptyState title={t('CatalogList.noneTitle')}>{t('CatalogList.noneText')}</EmptyState>
      )}
      {loaded && workflows.length > 0 && visible.length === 0 && (
        <EmptyState title={t('CatalogList.noMatchTitle')} action={<button type="button" className="btn" onClick={() => { setSearch(''); setTagFilter(null); }}>{t('CatalogList.clearFilters')}</button>}>
          {tag ? t('CatalogList.noMatchTag', { search, tag }) : t('CatalogList.noMatch', { search })}
        </EmptyState>
      )}
      <ul className="workflow-list" aria-label={t('CatalogList.workflows')}>
        {visible.map((w) => (
          // The card's button shows the name (what a speech-input user says to pick it) and its accessible name adds
          // the cost in words; the description is its description. The button covers the whole card.
          <li key={w.id} className={`workflow-card${w.id === selectedId ? ' is-selected' : ''}`}>
            <span className="workflow-card-top">
              <button
                type="button"
                className="workflow-pick"
                aria-pressed={w.id === selectedId}
                aria-label={t('CatalogList.cardLabel', { name: w.name, cost: format.credits(w.creditCost) })}
                aria-describedby={`${listId}-${w.id}`}
                onClick={() => void selectWorkflow(w.id)}
              >
                <span className="workflow-name">{w.name}</span>
              </button>
              <span className="cost-pill" aria-hidden="true">{format.credits(w.creditCost)}</span>
            </span>
            <span className="workflow-desc" id={`${listId}-${w.id}`}>{w.description}</span>
            <span className="tag-row">{w.tags.map((tag) => <span key={tag} className="tag">{tag}</span>)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
