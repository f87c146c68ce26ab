import { useApp } from '../store/context';
import type { View } from '../store/state';

const ITEMS: { view: View; label: string; icon: string }[] = [
  { view: 'workflows', label: 'Workflows', icon: '◧' },
  { view: 'queue', label: 'Queue', icon: '☰' },
  { view: 'review', label: 'Review', icon: '◐' },
  { view: 'hotFolders', label: 'Hot folders', icon: '⌂' },
  { view: 'history', label: 'History', icon: '◷' },
  { view: 'settings', label: 'Settings', icon: '⚙' },
];

export function Sidebar() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const running = useApp((s) => Object.values(s.batches).filter((b) => b.state === 'running').length);
  const armed = useApp((s) => s.hotFolders.filter((h) => h.config.enabled).length);
  const badge = (v: View) => (v === 'queue' ? running : v === 'hotFolders' ? armed : 0);
  return (
    <nav className="sidebar" aria-label="Sections">
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
              <span className="nav-label">{item.label}</span>
              {badge(item.view) > 0 && <span className="nav-badge" aria-label={`${badge(item.view)} active`}>{badge(item.view)}</span>}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
