import { DropOverlay } from './components/DropOverlay';
import { Header } from './components/Header';
import { Notices } from './components/Notices';
import { Sidebar } from './components/Sidebar';
import { useTheme } from './lib/theme';
import { HistoryScreen } from './screens/history/HistoryScreen';
import { HotFoldersScreen } from './screens/hotfolders/HotFoldersScreen';
import { QueueScreen } from './screens/queue/QueueScreen';
import { ReviewScreen } from './screens/review/ReviewScreen';
import { SettingsScreen } from './screens/settings/SettingsScreen';
import { WorkflowsScreen } from './screens/workflows/WorkflowsScreen';
import { useApp } from './store/context';
import type { View } from './store/state';

const SCREENS: Record<View, () => React.JSX.Element> = {
  workflows: WorkflowsScreen,
  queue: QueueScreen,
  review: ReviewScreen,
  hotFolders: HotFoldersScreen,
  history: HistoryScreen,
  settings: SettingsScreen,
};

const TITLES: Record<View, string> = {
  workflows: 'Workflows',
  queue: 'Queue',
  review: 'Review',
  hotFolders: 'Hot folders',
  history: 'History',
  settings: 'Settings',
};

export function App() {
  const view = useApp((s) => s.view);
  const theme = useApp((s) => s.settings?.theme);
  useTheme(theme);
  const Screen = SCREENS[view];
  return (
    <div className="app">
      <a className="skip-link" href="#main">Skip to content</a>
      <Header />
      <Notices />
      <div className="app-body">
        <Sidebar />
        <main id="main" className="app-main" aria-label={TITLES[view]}>
          <Screen />
        </main>
      </div>
      <DropOverlay />
    </div>
  );
}
