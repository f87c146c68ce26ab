import type { Command } from 'commander';
import { APP_VERSION } from '../../../shared/app-info';
import { AppError } from '../../../shared/errors';
import type { FeedCheck } from '../../core/update/check-once';

// `batchroom update --check`: whether the release feed has a newer version for this machine (channel, staging and
// "stay on this version" applied as the app applies them). Only when asked: `--version` and every other command stay
// offline. The CLI never installs: the desktop app downloads, verifies and offers "Restart to update".

interface UpdateFlags {
  check?: boolean;
}

/** The human answer, one fact per line (the first is the one a script or --quiet wants). */
export function updateCheckText(result: FeedCheck, policyPath: string | null): string[] {
  const on = `the ${result.channel} channel`;
  if (!result.available) {
    return [`Batchroom ${result.currentVersion} is the newest release on ${on}.`, ...(result.problem ? [result.problem] : [])];
  }
  const lines = [`Batchroom ${result.available.version} is available on ${on} (this is ${result.currentVersion}).`];
  if (result.stayOnThisVersion) {
    const by = result.managedBy === 'policy' ? `the update policy file${policyPath ? ` ${policyPath}` : ''}` : 'Settings › Updates ("Stay on this version")';
    lines.push(result.problem ?? `This installation stays on ${result.currentVersion}: set by ${by}.`);
  } else {
    lines.push('The desktop app downloads it in the background, checks it and offers "Restart to update".');
  }
  if (result.available.releaseNotes) {
    lines.push('', 'Release notes:', ...result.available.releaseNotes.split('\n').map((line) => `  ${line}`));
  }
  return lines;
}

export function registerUpdateCommand(program: Command): void {
  program
    .command('update')
    .description('say whether a newer Batchroom release exists (--check); the desktop app installs updates itself')
    .option('--check', 'read the release feed once and say whether a newer version exists (downloads nothing)')
    .action(async (flags: UpdateFlags, command: Command) => {
      const globals = command.optsWithGlobals<{ json?: boolean; quiet?: boolean; stateDir?: string }>();
      if (!flags.check) {
        throw new AppError('bad_request', 'Say `batchroom update --check`: the command line only checks; the desktop app downloads and installs updates.');
      }
      // Loaded only here: electron-updater and the settings store are not needed by any other command.
      const [{ checkFeedOnce }, { policyDirs, readUpdatePolicy }, { openSettingsStore, resolveStateDir }] = await Promise.all([
        import('../../core/update/check-once'), import('../../core/update/policy-file'), import('../../core/settings'),
      ]);
      const stateDir = resolveStateDir({ stateDir: globals.stateDir, env: process.env });
      const policy = readUpdatePolicy(policyDirs({ execPath: process.execPath, platform: process.platform, env: process.env }));
      const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
      const result = await checkFeedOnce({
        currentVersion: APP_VERSION,
        settings: openSettingsStore({ stateDir }).get(), policy, env: process.env, stateDir,
        ...(resourcesPath ? { resourcesPath } : {}),
      });
      if (globals.json) {
        process.stdout.write(`${JSON.stringify({ ...result, newer: result.available !== null, policyFile: policy.path })}\n`);
        return;
      }
      const [first, ...rest] = updateCheckText(result, policy.path);
      process.stdout.write(`${first}\n`);
      if (!globals.quiet) for (const line of rest) process.stdout.write(`${line}\n`);
    });
}
