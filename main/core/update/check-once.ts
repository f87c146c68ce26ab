import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { UpdateChannel, UpdateRelease } from '../../../shared/update/model';
import { publishOptionsOf, resolveUpdateConfig, type UpdateSettings } from './config';
import { NodeFeedUpdater } from './node-updater';
import type { PolicyRead } from './policy-file';
import { releaseNotesText } from './words';

export interface FeedCheck {
  currentVersion: string;
  channel: UpdateChannel;
  stayOnThisVersion: boolean;
  managedBy: 'settings' | 'policy';
  /** The newer release this machine would be offered (after the channel, staging and version rules), or null. */
  available: UpdateRelease | null;
  /** Why the policy file was not used, when it could not be. */
  problem: string | null;
}

export interface FeedCheckInput {
  currentVersion: string;
  settings: UpdateSettings;
  policy: PolicyRead;
  env: NodeJS.ProcessEnv;
  /** The state folder: the staging id (`.updaterId`) is the app's own, so the answer is the one the app would get. */
  stateDir: string;
  /** The packaged app's resources folder (console mode): its app-update.yml names the built-in feed. */
  resourcesPath?: string;
}

/**
 * `batchroom update --check`: reads the feed once, downloads nothing. The same electron-updater code and the same
 * rules as the app, so "a newer release exists" here means the app would offer it (a beta only on the beta channel, a
 * release staged away from this machine not at all).
 */
export async function checkFeedOnce(input: FeedCheckInput): Promise<FeedCheck> {
  const config = resolveUpdateConfig(input.settings, input.policy, input.env);
  const feed = config.feed ? publishOptionsOf(config.feed, config.channel) : builtInFeed(input.resourcesPath);
  if (!feed) {
    throw new AppError('not_found', 'No update feed is set for this copy of Batchroom.', {
      hint: 'Installed apps read theirs from the release; elsewhere set one in Settings › Updates, in batchroom-policy.json or in BATCHROOM_UPDATE_FEED_URL.',
    });
  }
  const updater = new NodeFeedUpdater({
    currentVersion: input.currentVersion, userDataPath: input.stateDir, cacheDir: join(input.stateDir, 'update-cache'), feed,
  });
  updater.logger = null;
  updater.autoDownload = false;
  updater.allowPrerelease = config.channel === 'beta';
  updater.channel = config.channel === 'beta' ? 'beta' : 'latest';
  updater.allowDowngrade = false;
  let available: UpdateRelease | null = null;
  try {
    const result = await updater.checkForUpdates();
    const info = result?.isUpdateAvailable ? result.updateInfo : null;
    if (info && (config.channel === 'beta' || !/^[^+]*-/.test(info.version))) {
      available = { version: info.version, releaseName: info.releaseName ?? null, releaseNotes: releaseNotesText(info.releaseNotes), releaseDate: info.releaseDate ?? null };
    }
  } catch (error) {
    throw new AppError('unavailable', `Could not read the update feed: ${(error as Error).message}`, {
      hint: 'Check the network connection, or the feed in Settings › Updates, batchroom-policy.json or BATCHROOM_UPDATE_FEED_URL.',
    });
  }
  return {
    currentVersion: input.currentVersion, channel: config.channel, stayOnThisVersion: config.stayOnThisVersion,
    managedBy: config.managedBy, available, problem: config.problem,
  };
}

/** The feed electron-builder wrote into a packaged app (resources/app-update.yml: `provider:` and `url:` lines). */
function builtInFeed(resourcesPath: string | undefined): Record<string, unknown> | null {
  const path = resourcesPath ? join(resourcesPath, 'app-update.yml') : null;
  if (!path || !existsSync(path)) return null;
  const fields: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^(\w+):\s*['"]?([^'"]*)['"]?\s*$/.exec(line);
    if (match) fields[match[1]!] = match[2]!;
  }
  return fields.provider ? fields : null;
}
