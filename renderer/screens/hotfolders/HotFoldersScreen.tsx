import { useState } from 'react';
import type { HotFolderConfig } from '../../../shared/hotfolders/model';
import { EmptyState } from '../../components/EmptyState';
import { ScreenTitle } from '../../components/ScreenTitle';
import { ErrorMessage } from '../../components/ErrorMessage';
import { baseName } from '../../lib/format';
import { useActions, useApp } from '../../store/context';
import { HotFolderCard } from './HotFolderCard';
import { HotFolderEditor } from './HotFolderEditor';
import { StudioPanel } from './StudioPanel';

type Editing = { config: HotFolderConfig | null; initialPath?: string } | null;

export function HotFoldersScreen() {
  const folders = useApp((s) => s.hotFolders);
  const loaded = useApp((s) => s.hotFoldersLoaded);
  const activity = useApp((s) => s.activity);
  const pendingPath = useApp((s) => s.pendingFolderPath);
  const loadError = useApp((s) => s.hotFoldersError);
  const studio = useApp((s) => Boolean(s.settings?.studioLedgerUrl));
  const { setPendingFolderPath, loadHotFolders } = useActions();
  const [editing, setEditing] = useState<Editing>(null);
  const shown: Editing = editing ?? (pendingPath ? { config: null, initialPath: pendingPath } : null);
  const close = () => {
    setEditing(null);
    setPendingFolderPath(null);
  };

  return (
    <div className="hot-screen">
      <div className="screen-head">
        <div>
          <ScreenTitle>Hot folders</ScreenTitle>
          <p className="muted">Photos saved into a watched folder are processed once each, automatically.</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setEditing({ config: null })}>Add hot folder</button>
      </div>
      {loadError && <ErrorMessage error={loadError} onRetry={() => void loadHotFolders()} />}
      {loaded && !loadError && folders.length === 0 && (
        <EmptyState title="No hot folders yet" icon="⌂" action={<button type="button" className="btn btn-primary" onClick={() => setEditing({ config: null })}>Add hot folder</button>}>
          Add a folder (or drop one on this window), choose a workflow, and every new photo saved into it is edited
          and saved to your output folder.
        </EmptyState>
      )}
      <div className="hot-grid">
        {folders.map((f) => <HotFolderCard key={f.config.id} folder={f} onEdit={() => setEditing({ config: f.config })} />)}
      </div>
      {studio && <StudioPanel />}
      {folders.length > 0 && (
        <section className="panel activity" aria-label="Activity">
          <h2 className="panel-title">Activity</h2>
          {activity.length === 0 ? (
            <p className="muted">Nothing yet. New photos appear here as they are detected and saved.</p>
          ) : (
            <ol className="activity-list" aria-live="polite">
              {activity.slice(0, 50).map((a, i) => (
                <li key={`${a.at}-${i}`} className={`activity-${a.kind}`}>
                  <time className="muted">{new Date(a.at).toLocaleTimeString()}</time>
                  <span className={`badge badge-${a.kind === 'failed' || a.kind === 'unavailable' ? 'danger' : a.kind === 'saved' ? 'ok' : 'neutral'}`}>{a.kind}</span>
                  <span className="mono">{baseName(a.path)}</span>
                  <span className="muted">{a.message}</span>
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
      {shown && <HotFolderEditor config={shown.config} initialPath={shown.initialPath} onClose={close} />}
    </div>
  );
}
