import type { MenuItemConstructorOptions } from 'electron';
import { APP_NAME } from '../../shared/app-info';
import type { TFunction } from '../../shared/i18n';
import type { AppView } from '../../shared/ipc/channels/files';
import type { HostCapabilities } from '../core/app/types';
import { installCliFromMenu, uninstallCliFromMenu, type InstallCliDeps } from './install-cli';
import { appMenuTemplate } from './menu';

/** What the application menu needs from startElectronApp's deps (ElectronAppDeps satisfies it structurally). */
export interface AppMenuDeps<M> extends InstallCliDeps {
  isDev: boolean;
  paths: InstallCliDeps['paths'] & { logs: string; stateDir: string };
  buildMenu(template: MenuItemConstructorOptions[]): M;
  setApplicationMenu(menu: M): void;
  openPath(path: string): Promise<string>;
  reportProblem?(): void;
}

export interface AppMenuWiring {
  host: HostCapabilities;
  /** Batchroom's own labels in the current language; read on each build so a language change shows. */
  labels(): TFunction<'native'>;
  /** Picked photos go where dropped ones go (the opened-paths relay). */
  addPaths(paths: string[]): void;
  /** Show the window and switch the renderer to a view. */
  navigate(view: AppView): void;
}

/**
 * Installs the native application menu and returns a function that builds it again: native menus follow the app's
 * language, so a language change rebuilds them.
 */
export function installAppMenu<M>(deps: AppMenuDeps<M>, wiring: AppMenuWiring): () => void {
  const pickInto = async (pick: () => Promise<string[]>) => {
    const paths = await pick();
    if (paths.length > 0) wiring.addPaths(paths);
  };
  const install = () => deps.setApplicationMenu(
    deps.buildMenu(
      appMenuTemplate({
        platform: deps.platform,
        appName: APP_NAME,
        isDev: deps.isDev,
        t: wiring.labels(),
        actions: {
          addPhotos: () => void pickInto(() => wiring.host.pickFiles!()),
          addFolder: () => void pickInto(async () => [(await wiring.host.pickFolder!()) ?? ''].filter(Boolean)),
          showLogs: () => void deps.openPath(deps.paths.logs),
          showDataFolder: () => void deps.openPath(deps.paths.stateDir),
          installCommandLineTool: () => void installCliFromMenu(deps),
          uninstallCommandLineTool: () => void uninstallCliFromMenu(deps),
          reportProblem: () => (deps.reportProblem ? deps.reportProblem() : deps.showMessage('Report a Problem', 'There is no problem report.')),
          navigate: wiring.navigate,
        },
      }),
    ),
  );
  install();
  return install;
}
