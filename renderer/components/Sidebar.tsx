import { useT } from '../i18n';
import { useApp } from '../store/context';
import type { View } from '../store/state';

const ITEMS: { view: View; icon: string }[] = [
  { view: 'workflows', icon: '◧' },
  { view: 'queue', icon: '☰' },
  { view: 'review', icon: '◐' },
  { view: 'hotFolders', icon: '⌂' },
  { view: 'history', icon: '◷' },
  { view: 'settings', icon: '⚙' },
];

export function Sidebar() {
  const t = useT('components');
  const tc = useT('common');
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const running = useApp((s) => Object.values(s.batches).filter((b) => b.state === 'running').length);
  const armed = useApp((s) => s.hotFolders.filter((h) => h.config.enabled).length);
  const badge = (v: View) => (v === 'queue' ? running : v === 'hotFolders' ? armed : 0);
  return (
    <nav className="sidebar" aria-label={t('Sidebar.sections')}>
      <ul>
        {ITEMS.map((item) => (
          <li key={item.view}>
            <button
              type="button"
              className={`nav-item${view === item.view ? ' is-active' : ''}`}
              aria-current={view === item.view ? 'page' : undefined}
              onClick={() => setView(item.view)}
            >
              <span className="nav-icon" aria-hidden="true">{item.icon}</span>
              <span className="nav-label">{tc(`view.${item.view}`)}</span>
              {badge(item.view) > 0 && <span className="nav-badge" aria-label={t('Sidebar.active', { count: badge(item.view) })}>{badge(item.view)}</span>}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
