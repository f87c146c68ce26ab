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
import { useFormat, useT } from '../../i18n';
import { catalogLabels } from '../../i18n/labels';

/** What happened to a photo, as the activity list's badge says it (the kind itself is a code word). */
const ACTIVITY_KINDS = catalogLabels('hotfolders', {
  detected: 'Activity.detected', queued: 'Activity.queued', saved: 'Activity.saved', failed: 'Activity.failed', skipped: 'Activity.skipped',
  moved: 'Activity.moved', unavailable: 'Activity.unavailable', recovered: 'Activity.recovered',
});

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
  const t = useT('hotfolders');
  const common = useT('common');
  const format = useFormat();
  const shown: Editing = editing ?? (pendingPath ? { config: null, initialPath: pendingPath } : null);
  const close = () => {
    setEditing(null);
    setPendingFolderPath(null);
  };

  return (
    <div className="hot-screen">
      <div className="screen-head">
        <div>
          <ScreenTitle>{common('view.hotFolders')}</ScreenTitle>
          <p className="muted">{t('Screen.intro')}</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setEditing({ config: null })}>{t('Screen.add')}</button>
      </div>
      {loadError && <ErrorMessage error={loadError} onRetry={() => void loadHotFolders()} />}
      {loaded && !loadError && folders.length === 0 && (
        <EmptyState title={t('Screen.emptyTitle')} icon="⌂" action={<button type="button" className="btn btn-primary" onClick={() => setEditing({ config: null })}>{t('Screen.add')}</button>}>
          {t('Screen.emptyBody')}
        </EmptyState>
      )}
      <div className="hot-grid">
        {folders.map((f) => <HotFolderCard key={f.config.id} folder={f} onEdit={() => setEditing({ config: f.config })} />)}
      </div>
      {studio && <StudioPanel />}
      {folders.length > 0 && (
        <section className="panel activity" aria-label={t('Screen.activity')}>
          <h2 className="panel-title">{t('Screen.activity')}</h2>
          {activity.length === 0 ? (
            <p className="muted">{t('Screen.noActivity')}</p>
          ) : (
            <ol className="activity-list" aria-live="polite">
              {activity.slice(0, 50).map((a, i) => (
                <li key={`${a.at}-${i}`} className={`activity-${a.kind}`}>
                  <time className="muted">{format.time(a.at)}</time>
                  <span className={`badge badge-${a.kind === 'failed' || a.kind === 'unavailable' ? 'danger' : a.kind === 'saved' ? 'ok' : 'neutral'}`}>{ACTIVITY_KINDS[a.kind]}</span>
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
