import { writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { join } from 'node:path';
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions, type UpdateFileInfo } from 'builder-util-runtime';
import { BaseUpdater, type AppUpdater } from 'electron-updater';
import type { DownloadExecutorResult, DownloadUpdateOptions } from 'electron-updater/out/AppUpdater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import { findFile, type Provider } from 'electron-updater/out/providers/Provider.js';

// electron-updater's own AppUpdater, run in plain Node (the CLI's `update --check`, and the tests against a real feed
// on 127.0.0.1), as electron-builder's tests run it: an AppAdapter instead of Electron's `app`, a Node HTTP executor
// instead of Electron's `net`. Reading the feed, the staging rule, the version rules and the sha512 check of the
// download are all electron-updater's code; only the native installer (the part that quits and installs) is injected.

/** Runs a verified installer: in the app that is electron-updater's NSIS / Squirrel.Mac step, here an injected port. */
export interface NativeInstaller {
  install(installerPath: string, options: { isSilent: boolean; isForceRunAfter: boolean }): boolean;
}

export interface NodeUpdaterOptions {
  currentVersion: string;
  /** Where `.updaterId` (the staging user id) lives: the state folder. */
  userDataPath: string;
  /** Where downloads are cached (pending/ holds one until it is verified). */
  cacheDir: string;
  /** The feed: electron-builder's publish options (`{provider:'generic', url}` or `{provider:'github', owner, repo}`). */
  feed: Record<string, unknown>;
  /** Which feed file to read: win32 → latest.yml, darwin → latest-mac.yml, linux → latest-linux.yml. */
  platform?: NodeJS.Platform;
  installer?: NativeInstaller;
  quit?: () => void;
}

/**
 * Electron's `net` replaced by Node's http(s): createRequest as builder-util's NodeHttpExecutor (without proxies),
 * download as electron-updater's ElectronHttpExecutor — the base class's doDownload pipes the body through its
 * DigestTransform, which fails with ERR_CHECKSUM_MISMATCH when the bytes do not match the feed's sha512.
 */
export class NodeHttpExecutor extends HttpExecutor<http.ClientRequest> {
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: http.RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(requestOptions, {
        destination, options, onCancel, responseHandler: null,
        callback: (error) => (error == null ? resolve(destination) : reject(error)),
      }, 0);
    });
  }

  createRequest(options: http.RequestOptions, callback: (response: http.IncomingMessage) => void): http.ClientRequest {
    return (options.protocol === 'http:' ? http.request : https.request)(options, callback);
  }
}

const EXTENSION: Partial<Record<NodeJS.Platform, string>> = { win32: 'exe', darwin: 'zip', linux: 'AppImage' };

/** The platform-neutral updater: downloads the platform's file through AppUpdater.executeDownload (sha512-checked). */
export class NodeFeedUpdater extends BaseUpdater {
  private readonly installer: NativeInstaller | undefined;
  private readonly extension: string;

  constructor(options: NodeUpdaterOptions) {
    const platform = options.platform ?? process.platform;
    mkdirSync(options.cacheDir, { recursive: true });
    // What electron-builder writes into the app's resources as app-update.yml (JSON is YAML): the feed and the name of
    // the cache folder, which AppUpdater reads before any download.
    const configPath = join(options.cacheDir, 'app-update.yml');
    writeFileSync(configPath, JSON.stringify({ ...options.feed, updaterCacheDirName: 'batchroom-updater' }));
    super(null, nodeAppAdapter(options, configPath));
    this.installer = options.installer;
    this.extension = EXTENSION[platform] ?? 'zip';
    // electron-updater's internals for hosts without Electron (its tests set the same two): the HTTP executor, and
    // the platform whose feed file is read (full downloads only: no differential download from a previous installer).
    const internals = this as unknown as { httpExecutor: NodeHttpExecutor; _testOnlyOptions: unknown };
    internals.httpExecutor = new NodeHttpExecutor();
    internals._testOnlyOptions = { platform, isUseDifferentialDownload: false };
  }

  protected doDownloadUpdate(options: DownloadUpdateOptions): Promise<DownloadExecutorResult> {
    const provider = options.updateInfoAndProvider.provider as Provider<typeof options.updateInfoAndProvider.info>;
    const fileInfo = findFile(provider.resolveFiles(options.updateInfoAndProvider.info), this.extension);
    if (!fileInfo) return Promise.reject(new Error(`The feed lists no .${this.extension} file for this platform.`));
    const executor = (this as unknown as { httpExecutor: NodeHttpExecutor }).httpExecutor;
    return this.executeDownload({
      fileExtension: this.extension,
      downloadUpdateOptions: options,
      fileInfo,
      // builder-util-runtime's download verifies fileInfo's sha512 (ERR_CHECKSUM_MISMATCH), executeDownload deletes
      // the file when it does not match.
      task: (destination, downloadOptions) => executor.download(fileInfo.url, destination, downloadOptions),
    });
  }

  protected doInstall(options: { isSilent: boolean; isForceRunAfter: boolean }): boolean {
    const path = this.installerPath;
    if (!this.installer || path === null) return false;
    return this.installer.install(path, options);
  }

  /** BaseUpdater's quitAndInstall also pokes Electron's autoUpdater; outside Electron only the quit is left. */
  override quitAndInstall(isSilent = false, isForceRunAfter = false): void {
    if (this.install(isSilent, isSilent ? isForceRunAfter : this.autoRunAppAfterInstall)) setImmediate(() => this.app.quit());
    else this.quitAndInstallCalled = false;
  }
}

function nodeAppAdapter(options: NodeUpdaterOptions, appUpdateConfigPath: string): AppAdapter {
  return {
    version: options.currentVersion,
    name: 'Batchroom',
    isPackaged: true,
    appUpdateConfigPath,
    userDataPath: options.userDataPath,
    baseCachePath: options.cacheDir,
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => options.quit?.(),
    onQuit: () => undefined,
  };
}

/** Narrowed for the controller: any AppUpdater (electron-updater's autoUpdater in the app, NodeFeedUpdater here). */
export type Updater = AppUpdater;
export type { UpdateFileInfo };
