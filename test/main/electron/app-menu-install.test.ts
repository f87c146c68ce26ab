import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { translatorFor } from '../../../shared/i18n';
import { installAppMenu, type AppMenuDeps } from '../../../main/electron/app-menu-install';
import { createLogger } from '../../../main/core/log';

type Template = MenuItemConstructorOptions[];

function findItem(template: Template, label: string): MenuItemConstructorOptions | undefined {
  for (const item of template) {
    if (item.label === label) return item;
    if (Array.isArray(item.submenu)) {
      const found = findItem(item.submenu as Template, label);
      if (found) return found;
    }
  }
  return undefined;
}

function setup(language: { current: 'en' | 'de' }) {
  const installed: Template[] = [];
  const deps: AppMenuDeps<Template> = {
    platform: 'linux',
    isDev: false,
    appCommand: ['/opt/batchroom/batchroom'],
    paths: { userData: '/tmp/u', logs: '/tmp/logs', stateDir: '/tmp/state' },
    env: {},
    logger: createLogger({ sink: () => {}, minLevel: 'error' }),
    buildMenu: (template) => template,
    setApplicationMenu: (menu) => installed.push(menu),
    openPath: vi.fn(async () => ''),
    showMessage: vi.fn(),
    showErrorBox: vi.fn(),
  };
  const addPaths = vi.fn();
  const navigate = vi.fn();
  const host = { pickFiles: vi.fn(async () => ['/photos/a.jpg', '/photos/b.jpg']), pickFolder: vi.fn(async () => null) };
  const rebuild = installAppMenu(deps, {
    host: host as never,
    labels: () => translatorFor(language.current).ns('native'),
    addPaths,
    navigate,
  });
  return { installed, deps, addPaths, navigate, host, rebuild };
}

describe('installAppMenu', () => {
  it('installs the menu once, and rebuilds it in the new language when asked', () => {
    const language = { current: 'en' as 'en' | 'de' };
    const { installed, rebuild } = setup(language);
    expect(installed).toHaveLength(1);
    const english = translatorFor('en').ns('native')('menu.queue');
    const german = translatorFor('de').ns('native')('menu.queue');
    expect(english).not.toBe(german);
    expect(findItem(installed[0]!, english)).toBeDefined();
    language.current = 'de';
    rebuild();
    expect(installed).toHaveLength(2);
    expect(findItem(installed[1]!, german)).toBeDefined();
  });

  it('hands picked photos to the drop path and ignores a cancelled folder pick', async () => {
    const { installed, addPaths, host } = setup({ current: 'en' });
    const t = translatorFor('en').ns('native');
    findItem(installed[0]!, t('menu.addPhotos'))!.click!({} as never, undefined, {} as never);
    await vi.waitFor(() => expect(addPaths).toHaveBeenCalledWith(['/photos/a.jpg', '/photos/b.jpg']));
    findItem(installed[0]!, t('menu.addFolder'))!.click!({} as never, undefined, {} as never);
    await vi.waitFor(() => expect(host.pickFolder).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(addPaths).toHaveBeenCalledTimes(1);
  });

  it('says there is no problem report when none can be shown, and navigates to views', () => {
    const { installed, deps, navigate } = setup({ current: 'en' });
    const t = translatorFor('en').ns('native');
    findItem(installed[0]!, t('menu.reportProblem'))!.click!({} as never, undefined, {} as never);
    expect(deps.showMessage).toHaveBeenCalledWith('Report a Problem', 'There is no problem report.');
    findItem(installed[0]!, t('menu.queue'))!.click!({} as never, undefined, {} as never);
    expect(navigate).toHaveBeenCalledWith('queue');
  });
});
