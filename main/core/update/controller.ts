import type { AppUpdater } from 'electron-updater';
import type { UpdateInfo } from 'builder-util-runtime';
import type { UpdateRelease, UpdateStatus } from '../../../shared/update/model';
import { silentLogger, type Logger } from '../log';
import { feedChannelOf, publishOptionsOf, type EffectiveUpdateConfig } from './config';
import { downloadFailureMessage, releaseNotesText } from './words';

/** Check at start (after a short delay, so start-up work goes first) and every few hours. */
export const DEFAULT_CHECK_EVERY_MS = 4 * 60 * 60 * 1000;
export const DEFAULT_FIRST_CHECK_MS = 30_000;

export interface UpdateControllerOptions {
  /** electron-updater's autoUpdater in the app; a NodeFeedUpdater in plain Node. */
  updater: AppUpdater;
  currentVersion: string;
  /** Read at every check: Settings and the policy file may change while the app runs. */
  config(): EffectiveUpdateConfig;
  /** Why installing now would cut work short (work.ts), or null. */
  workInFlight(): string | null;
  /** Every status change (the renderer's `update:changed`). */
  onStatus?(status: UpdateStatus): void;
  logger?: Logger;
  checkEveryMs?: number;
  firstCheckMs?: number;
}

export interface UpdateController {
  status(): UpdateStatus;
  check(): Promise<UpdateStatus>;
  /** "Restart to update": installs only when a verified download is ready and no work is in flight. */
  install(): UpdateStatus;
  /** Work started or ended: an update held back is offered again once nothing is in flight. */
  workChanged(): void;
  /** Settings or the policy file changed: "stay on this version" withdraws an offer at once; a channel change re-checks. */
  configChanged(): void;
  start(): void;
  stop(): void;
}

/**
 * The update policy around electron-updater: it reads the feed, applies the staging rule and verifies the download
 * (sha512; on Windows also the publisher's signature); this decides what is downloaded and when it may be installed.
 * Downloads are never automatic in electron-updater's sense (autoDownload off): a beta on the stable channel and a
 * pinned installation download nothing.
 */
export function createUpdateController(options: UpdateControllerOptions): UpdateController {
  const { updater } = options;
  const log = (options.logger ?? silentLogger).child('update');
  let config = options.config();
  let status: UpdateStatus = {
    state: 'idle', currentVersion: options.currentVersion, channel: config.channel, managedBy: config.managedBy,
    stayOnThisVersion: config.stayOnThisVersion, available: null, percent: null, message: null, lastCheckedAt: null,
  };
  let running: Promise<UpdateStatus> | null = null;
  let timers: NodeJS.Timeout[] = [];
  let lastFeed = '';

  const set = (patch: Partial<UpdateStatus>): UpdateStatus => {
    status = { ...status, ...patch };
    options.onStatus?.(status);
    return status;
  };
  // electron-updater logs to the console by default; its lines go to the app's log instead.
  updater.logger = {
    info: (message?: unknown) => log.debug(String(message)),
    warn: (message?: unknown) => log.warn(String(message)),
    error: (message?: unknown) => log.error(String(message)),
  };
  updater.on('download-progress', (progress) => {
    if (status.state === 'downloading') set({ percent: Math.min(100, Math.max(0, progress.percent)) });
  });
  // electron-updater logs and emits every failure; the controller reports the ones of its own calls.
  updater.on('error', (error) => log.debug('updater error', { message: error.message }));

  const configure = (cfg: EffectiveUpdateConfig) => {
    updater.autoDownload = false;
    // Never install an older version, also when a beta user goes back to stable: they stay until stable passes them.
    updater.allowDowngrade = false;
    updater.allowPrerelease = cfg.channel === 'beta';
    // Installing on quit is safe: a graceful quit drains work in flight before the app (and the installer) go.
    updater.autoInstallOnAppQuit = !cfg.stayOnThisVersion;
    if (cfg.feed) {
      const feed = JSON.stringify(cfg.feed) + cfg.channel;
      if (feed !== lastFeed) updater.setFeedURL(publishOptionsOf(cfg.feed, cfg.channel) as never);
      lastFeed = feed;
    } else if (lastFeed !== '') {
      // Back to the built-in feed (app-update.yml): electron-updater reads it again once it has no provider.
      (updater as unknown as { clientPromise: unknown }).clientPromise = null;
      lastFeed = '';
    }
    updater.channel = feedChannelOf(cfg.channel);
    // The channel setter turns downgrades on; this app never downgrades.
    updater.allowDowngrade = false;
  };

  const offerOrWait = (): UpdateStatus => {
    const reason = options.workInFlight();
    return reason
      ? set({ state: 'waiting', percent: null, message: `Version ${status.available?.version} is ready; it installs when nothing is in flight (now ${reason}).` })
      : set({ state: 'ready', percent: null, message: `Version ${status.available?.version} is ready. Restart to update.` });
  };

  const doCheck = async (): Promise<UpdateStatus> => {
    config = options.config();
    set({ channel: config.channel, managedBy: config.managedBy, stayOnThisVersion: config.stayOnThisVersion });
    if (config.problem) return set({ state: 'pinned', message: config.problem });
    configure(config);
    set({ state: 'checking', message: null, percent: null });
    let info: UpdateInfo | null = null;
    try {
      const result = await updater.checkForUpdates();
      if (result?.isUpdateAvailable) info = result.updateInfo;
    } catch (error) {
      log.warn('update check failed', { message: (error as Error).message });
      return set({ state: 'failed', lastCheckedAt: new Date().toISOString(), message: `Could not check for updates: ${(error as Error).message}` });
    }
    const lastCheckedAt = new Date().toISOString();
    // A beta listed in a stable feed (a misconfigured publish) is not offered on the stable channel.
    if (!info || (config.channel === 'stable' && isPrerelease(info.version))) {
      return set({ state: 'up-to-date', available: null, lastCheckedAt, message: `${options.currentVersion} is the newest version on the ${config.channel} channel.` });
    }
    const available = releaseOf(info);
    if (config.stayOnThisVersion) {
      const by = config.managedBy === 'policy' ? 'your administrator\'s update policy' : 'Settings';
      return set({ state: 'pinned', available, lastCheckedAt, message: `Version ${available.version} is available; ${by} keeps this installation on ${options.currentVersion}.` });
    }
    set({ state: 'downloading', available, lastCheckedAt, percent: 0, message: null });
    try {
      await updater.downloadUpdate();
    } catch (error) {
      log.warn('update download refused', { version: available.version, message: (error as Error).message });
      return set({ state: 'failed', percent: null, message: downloadFailureMessage(available.version, error) });
    }
    // "Stay on this version" chosen while it downloaded (configChanged said so): the download is not offered.
    if (pinNow()) return status;
    return offerOrWait();
  };

  /** Re-reads Settings and the policy file; when they now keep this version, a download is withdrawn. */
  const pinNow = (): boolean => {
    const next = options.config();
    config = next;
    if (!next.stayOnThisVersion) return false;
    updater.autoInstallOnAppQuit = false;
    if (['ready', 'waiting', 'downloading', 'pinned'].includes(status.state)) {
      set({ state: 'pinned', channel: next.channel, managedBy: next.managedBy, stayOnThisVersion: true, percent: null,
        message: next.problem ?? `Version ${status.available?.version} will not be installed: this installation stays on ${options.currentVersion}.` });
    }
    return true;
  };

  const check = (): Promise<UpdateStatus> => {
    // A download already verified (or being installed) is kept; a new check would only fetch it again — but the
    // policy file is read at every check, so one dropped in since withdraws it.
    if (['ready', 'waiting'].includes(status.state) && pinNow()) return Promise.resolve(status);
    if (['ready', 'waiting', 'installing'].includes(status.state)) return Promise.resolve(status);
    running ??= doCheck().finally(() => { running = null; });
    return running;
  };

  return {
    status: () => status,
    check,
    install() {
      if (status.state !== 'ready' && status.state !== 'waiting') return status;
      if (pinNow()) return status;
      if (options.workInFlight()) return offerOrWait();
      set({ state: 'installing', message: `Installing ${status.available?.version}…` });
      // Silent (the person already chose "Restart to update": no installer wizard on Windows), and the app starts
      // again afterwards.
      updater.quitAndInstall(true, true);
      return status;
    },
    workChanged() {
      if (status.state === 'waiting' || status.state === 'ready') {
        const busy = options.workInFlight() !== null;
        if (busy !== (status.state === 'waiting')) offerOrWait();
      }
    },
    configChanged() {
      const next = options.config();
      const before = config;
      config = next;
      if (next.stayOnThisVersion && ['ready', 'waiting', 'downloading'].includes(status.state)) {
        updater.autoInstallOnAppQuit = false;
        set({ state: 'pinned', channel: next.channel, managedBy: next.managedBy, stayOnThisVersion: true, percent: null,
          message: `Version ${status.available?.version} will not be installed: this installation stays on ${options.currentVersion}.` });
        return;
      }
      const changed = next.channel !== before.channel || next.stayOnThisVersion !== before.stayOnThisVersion || JSON.stringify(next.feed) !== JSON.stringify(before.feed);
      if (changed && !['ready', 'waiting', 'installing', 'downloading', 'checking'].includes(status.state)) void check().catch(() => undefined);
    },
    start() {
      const run = () => void check().catch((error: unknown) => log.warn('update check failed', { message: String(error) }));
      timers = [setTimeout(run, options.firstCheckMs ?? DEFAULT_FIRST_CHECK_MS), setInterval(run, options.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS)];
      for (const timer of timers) timer.unref();
    },
    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers = [];
    },
  };
}

function releaseOf(info: UpdateInfo): UpdateRelease {
  return {
    version: info.version,
    releaseName: info.releaseName ?? null,
    releaseNotes: releaseNotesText(info.releaseNotes),
    releaseDate: info.releaseDate ?? null,
  };
}

/** Semver: a pre-release has a `-` part before any `+build` part (1.2.0-beta.1). */
function isPrerelease(version: string): boolean {
  return /^[^+]*-/.test(version);
}
