import { describe, expect, it } from 'vitest';
import { resolveStateDir } from '../../../main/core/settings';

describe('resolveStateDir', () => {
  const home = '/home/ana';
  it('prefers --state-dir, then BATCHROOM_STATE_DIR, resolving relative paths', () => {
    const env = { BATCHROOM_STATE_DIR: '/env/state' };
    expect(resolveStateDir({ stateDir: '/flag/state', env, platform: 'linux', homedir: home })).toBe('/flag/state');
    expect(resolveStateDir({ env, platform: 'linux', homedir: home })).toBe('/env/state');
    expect(resolveStateDir({ stateDir: 'rel', env: {}, platform: 'linux', homedir: home, cwd: '/work' })).toBe('/work/rel');
    expect(resolveStateDir({ stateDir: '  ', env, platform: 'linux', homedir: home })).toBe('/env/state');
  });

  it('uses the per-user config folder of each platform', () => {
    expect(resolveStateDir({ env: {}, platform: 'linux', homedir: home })).toBe('/home/ana/.config/Batchroom');
    expect(resolveStateDir({ env: { XDG_CONFIG_HOME: '/xdg' }, platform: 'linux', homedir: home })).toBe('/xdg/Batchroom');
    expect(resolveStateDir({ env: { XDG_CONFIG_HOME: 'relative' }, platform: 'linux', homedir: home })).toBe('/home/ana/.config/Batchroom');
    expect(resolveStateDir({ env: {}, platform: 'darwin', homedir: '/Users/ana' })).toBe('/Users/ana/Library/Application Support/Batchroom');
    expect(resolveStateDir({ env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, platform: 'win32', homedir: 'C:\\Users\\ana' })).toBe(
      'C:\\Users\\ana\\AppData\\Roaming\\Batchroom',
    );
    expect(resolveStateDir({ env: {}, platform: 'win32', homedir: 'C:\\Users\\ana' })).toBe('C:\\Users\\ana\\AppData\\Roaming\\Batchroom');
  });
});
