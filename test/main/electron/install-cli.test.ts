import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../main/core/log';
import { installCliFromMenu, uninstallCliFromMenu } from '../../../main/electron/install-cli';

// Help ▸ Install Command-Line Tool… as the app runs it: a message with what happened, or an error box saying what to
// do. Windows paths here, so the test writes into a temp %LOCALAPPDATA% and never into /usr/local/bin.

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'br-install-menu-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

const depsFor = (local: string) => ({
  platform: 'win32', appCommand: ['C:\\Program Files\\Batchroom\\Batchroom.exe'], paths: { userData: join(dir, 'Roaming') },
  env: { LOCALAPPDATA: local, PATH: join(local, 'Programs', 'Batchroom', 'bin') }, showMessage: vi.fn(), showErrorBox: vi.fn(), logger: silentLogger,
});

describe('Install Command-Line Tool from the menu', () => {
  it('installs the launcher and says how to use it', async () => {
    const deps = depsFor(join(dir, 'Local'));
    await installCliFromMenu(deps);
    expect(deps.showErrorBox).not.toHaveBeenCalled();
    expect(deps.showMessage).toHaveBeenCalledWith('Command-line tool installed', expect.stringMatching(/^Installed .*batchroom\.cmd\. Open a new terminal and type batchroom --help\.$/));
    expect(await readFile(join(dir, 'Local', 'Programs', 'Batchroom', 'bin', 'batchroom.cmd'), 'utf8')).toContain('--cli -- %*');
  });

  it('leaves a batchroom it did not write alone, and says what to do', async () => {
    const bin = join(dir, 'Local', 'Programs', 'Batchroom', 'bin');
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, 'batchroom.cmd'), '@echo mine\r\n');
    const deps = depsFor(join(dir, 'Local'));
    await installCliFromMenu(deps);
    expect(deps.showMessage).not.toHaveBeenCalled();
    expect(deps.showErrorBox).toHaveBeenCalledWith('Batchroom could not install the command-line tool',
      expect.stringMatching(/already exists and was not installed by Batchroom: it was left as it is\.\n\nRemove or rename it, then choose Install Command-Line Tool again\./));
    expect(await readFile(join(bin, 'batchroom.cmd'), 'utf8')).toBe('@echo mine\r\n');
  });

  it('Uninstall removes the launcher it wrote, says when there was none, and never removes someone else\'s', async () => {
    const deps = depsFor(join(dir, 'Local'));
    const cmd = join(dir, 'Local', 'Programs', 'Batchroom', 'bin', 'batchroom.cmd');
    await installCliFromMenu(deps);
    await uninstallCliFromMenu(deps);
    expect(deps.showMessage).toHaveBeenLastCalledWith('Command-line tool', `Removed ${cmd}.`);
    await expect(readFile(cmd, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    await uninstallCliFromMenu(deps);
    expect(deps.showMessage).toHaveBeenLastCalledWith('Command-line tool', `There was no ${cmd} to remove.`);
    await writeFile(cmd, '@echo mine\r\n');
    await uninstallCliFromMenu(deps);
    expect(deps.showErrorBox).toHaveBeenCalledWith('Batchroom could not uninstall the command-line tool',
      `${cmd} was not installed by Batchroom: it was left as it is.\n\nRemove it the way it was installed (for npm link: npm unlink -g batchroom).`);
    expect(await readFile(cmd, 'utf8')).toBe('@echo mine\r\n');
  });
});
