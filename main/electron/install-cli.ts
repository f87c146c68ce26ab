import { APP_NAME } from '../../shared/app-info';
import { isAppError } from '../../shared/errors';
import { installCommandLineTool } from '../core/app/cli-install';
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
