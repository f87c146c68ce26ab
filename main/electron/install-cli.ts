import { APP_NAME } from '../../shared/app-info';
import { isAppError } from '../../shared/errors';
import { installCommandLineTool } from '../core/app/cli-install';
import type { ElectronAppDeps } from './app-main';

/** Help ▸ Install Command-Line Tool…: installs the launcher and tells the user what happened, or what to do instead. */
export async function installCliFromMenu(deps: Pick<ElectronAppDeps, 'platform' | 'appCommand' | 'paths' | 'env' | 'showMessage' | 'showErrorBox' | 'logger'>): Promise<void> {
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
