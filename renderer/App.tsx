import { DropOverlay } from './components/DropOverlay';
import { Header } from './components/Header';
import { Notices } from './components/Notices';
import { Sidebar } from './components/Sidebar';
import { I18nProvider, languageFor, useT } from './i18n';
import { useTheme } from './lib/theme';
import { HistoryScreen } from './screens/history/HistoryScreen';
import { HotFoldersScreen } from './screens/hotfolders/HotFoldersScreen';
import { QueueScreen } from './screens/queue/QueueScreen';
import { ReviewScreen } from './screens/review/ReviewScreen';
import { SettingsScreen } from './screens/settings/SettingsScreen';
import { UpdateNotice } from './screens/settings/UpdateNotice';
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

function Shell() {
  const t = useT('common');
  const tc = useT('components');
  const view = useApp((s) => s.view);
  const theme = useApp((s) => s.settings?.theme);
  useTheme(theme);
  const Screen = SCREENS[view];
  return (
    <div className="app">
      <a className="skip-link" href="#main">{tc('App.skipToContent')}</a>
      <Header />
      {/* One grid row (the notices strip) for both: the update notice under the app's notices. */}
      <div style={{ gridRow: 2, minWidth: 0 }}>
        <Notices />
        <UpdateNotice />
      </div>
      <div className="app-body">
        <Sidebar />
        <main id="main" className="app-main" aria-label={t(`view.${view}`)}>
          <Screen />
        </main>
      </div>
      <DropOverlay />
    </div>
  );
}

export function App() {
  // The setting wins; 'system' (and settings not loaded yet) follows the OS's languages.
  const language = languageFor(useApp((s) => s.settings?.language));
  return (
    // Keyed: a new language remounts the tree, so text made outside React (lib, store) follows it too.
    <I18nProvider key={language} language={language}>
      <Shell />
    </I18nProvider>
  );
}
