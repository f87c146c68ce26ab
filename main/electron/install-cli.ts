import { APP_NAME } from '../../shared/app-info';
import { isAppError } from '../../shared/errors';
import { installCommandLineTool, uninstallCommandLineTool } from '../core/app/cli-install';
import type { Logger } from '../core/log';

export interface InstallCliDeps {
  platform: string;
  /** How a launcher starts this app (ElectronAppDeps.appCommand). */
  appCommand: readonly string[];
  paths: { userData: string };
  env: Record<string, string | undefined>;
  showMessage(title: string, message: string): void;
  showErrorBox(title: string, message: string): void;
  logger: Logger;
}

/** Help ▸ Install Command-Line Tool…: installs the launcher and tells the user what happened, or what to do instead. */
export async function installCliFromMenu(deps: InstallCliDeps): Promise<void> {
  try {
    const result = await installCommandLineTool({ platform: deps.platform, appCommand: deps.appCommand, userData: deps.paths.userData, env: deps.env });
    deps.showMessage('Command-line tool installed', result.message);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = isAppError(error) && error.hint ? `\n\n${error.hint}` : '';
    deps.logger.warn('install command-line tool failed', { message });
    deps.showErrorBox(`${APP_NAME} could not install the command-line tool`, `${message}${hint}`);
  }
}

/** Help ▸ Uninstall Command-Line Tool: removes the launcher Install wrote (nothing else), or says what to do instead. */
export async function uninstallCliFromMenu(deps: InstallCliDeps): Promise<void> {
  try {
    const result = await uninstallCommandLineTool({ platform: deps.platform, userData: deps.paths.userData, env: deps.env });
    deps.showMessage('Command-line tool', result.message);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = isAppError(error) && error.hint ? `\n\n${error.hint}` : '';
    deps.logger.warn('uninstall command-line tool failed', { message });
    deps.showErrorBox(`${APP_NAME} could not uninstall the command-line tool`, `${message}${hint}`);
  }
}
