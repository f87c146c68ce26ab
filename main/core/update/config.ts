import type { Settings } from '../../../shared/settings/schema';
import type { UpdateChannel, UpdateFeed } from '../../../shared/update/model';
import type { PolicyRead } from './policy-file';

/** Overrides the feed (tests, a private mirror): an http(s) URL of a generic feed. */
export const UPDATE_FEED_ENV = 'BATCHROOM_UPDATE_FEED_URL';

export type UpdateSettings = Pick<Settings, 'updateChannel' | 'updateStayOnThisVersion' | 'updateFeed'>;

export interface EffectiveUpdateConfig {
  channel: UpdateChannel;
  stayOnThisVersion: boolean;
  managedBy: 'settings' | 'policy';
  /** Null: the feed built into the app (electron-builder writes it to resources/app-update.yml). */
  feed: UpdateFeed | null;
  /** Why the policy file turned updates off (unreadable or invalid), to show instead of a check. */
  problem: string | null;
}

/** The policy file wins over Settings field by field; an unusable policy file keeps this version (fail closed). */
export function resolveUpdateConfig(settings: UpdateSettings, policyRead: PolicyRead, env: NodeJS.ProcessEnv = {}): EffectiveUpdateConfig {
  const policy = policyRead.policy ?? {};
  const envUrl = env[UPDATE_FEED_ENV]?.trim();
  // The admin's policy feed wins over everything; the environment's only over Settings, and only an https URL (or
  // http on this computer, for tests): sha512 comes from the feed itself, so a plain-http feed would prove nothing.
  const envFeed: UpdateFeed | null = envUrl && isTrustedFeedUrl(envUrl) ? { provider: 'generic', url: envUrl } : null;
  const feed: UpdateFeed | null = policy.feed ?? envFeed ?? settings.updateFeed ?? null;
  if (policyRead.problem) {
    return { channel: settings.updateChannel, stayOnThisVersion: true, managedBy: 'policy', feed, problem: policyRead.problem };
  }
  const managed = policy.stayOnThisVersion !== undefined || policy.channel !== undefined;
  return {
    channel: policy.channel ?? settings.updateChannel,
    stayOnThisVersion: policy.stayOnThisVersion ?? settings.updateStayOnThisVersion,
    managedBy: managed ? 'policy' : 'settings',
    feed,
    problem: null,
  };
}

/** electron-builder's publish options for a feed (what AppUpdater.setFeedURL takes). */
export function publishOptionsOf(feed: UpdateFeed, channel: UpdateChannel): Record<string, unknown> {
  const base = feed.provider === 'generic' ? { provider: 'generic', url: feed.url } : { provider: 'github', owner: feed.owner, repo: feed.repo };
  return { ...base, channel: feedChannelOf(channel) };
}

/** The feed's file names: electron-builder publishes stable releases as latest*.yml and betas as beta*.yml. */
export function feedChannelOf(channel: UpdateChannel): string {
  return channel === 'beta' ? 'beta' : 'latest';
}

/** https anywhere; http only to this computer (a test feed on 127.0.0.1). */
export function isTrustedFeedUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname));
  } catch {
    return false;
  }
}
