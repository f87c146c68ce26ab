import { basename, relative } from 'node:path';
import { isAppError } from '../../../shared/errors';
import type { HotFolderActivity, HotFolderConfig, HotFolderStatus } from '../../../shared/hotfolders/model';
import type { ClaimResult, Ledger } from '../studio/ledger';
import type { HotFolderEngine } from './ports';
import type { Logger } from '../log';

// Studio mode's step between "this file is new here" and "queue it": the shared ledger grants the photo to exactly
// one instance. On one machine the local ledger grants every claim and this step costs nothing.

export const LEDGER_UNREACHABLE = 'studio ledger unreachable — claiming paused until it answers again';

/** The folder's name in the studio: the same on every machine, wherever each mounts the share. */
export function studioFolderKey(config: Pick<HotFolderConfig, 'studioFolder' | 'path'>): string {
  return config.studioFolder ?? basename(config.path);
}

interface ClaimFolder {
  config: HotFolderConfig;
  status: HotFolderStatus;
  activity(kind: HotFolderActivity['kind'], path: string, message: string): void;
}

export interface ClaimFile {
  path: string;
  key: string;
  contentHash: string;
  parametersHash: string;
}

export class ClaimStep {
  /** Files another instance holds (or that met an unreachable ledger): looked at again once their claim settles. */
  private readonly waiting = new Map<string, string>();
  private readonly told = new Set<string>();
  /** Claimed here and not finished yet. */
  private readonly outstanding = new Set<string>();
  /**
   * New files this instance has no room for yet: it claims only what its engine will start soon (claimAhead), so
   * the other instances on the folder, not the first to see a burst of files, share the work.
   */
  private readonly backlog = new Map<string, string>();
  private cost: { workflowId: string; credits: number } | null = null;

  constructor(
    private readonly folder: ClaimFolder,
    private readonly deps: { ledger: Ledger; engine: HotFolderEngine; onStatusChange(): void; logger?: Logger; studioClaimAhead?: number },
    private readonly reconsider: (path: string) => void,
  ) {}

  get shared(): boolean {
    return this.deps.ledger.shared;
  }

  /** Registers the folder (and its budget, shared by every instance) in the studio ledger, when the folder is armed. */
  async join(): Promise<void> {
    if (!this.shared) return;
    const config = this.folder.config;
    try {
      await this.deps.ledger.setFolder(studioFolderKey(config), config.budget, config.id);
      this.reachable(true);
    } catch (error) {
      if (!this.isUnreachable(error)) throw error;
    }
  }

  /** True when this instance may process the file now; otherwise the file waits (or is done) and we say why once. */
  async claim(file: ClaimFile): Promise<boolean> {
    if (!this.shared) return true;
    if (this.outstanding.size >= (this.deps.studioClaimAhead ?? 8)) {
      this.backlog.set(file.key, file.path);
      return false;
    }
    this.backlog.delete(file.key);
    const config = this.folder.config;
    try {
      const result = await this.deps.ledger.claim({
        key: file.key, folderKey: studioFolderKey(config), contentHash: file.contentHash, workflowId: config.workflowId,
        parametersHash: file.parametersHash, relPath: relative(config.path, file.path).split('\\').join('/'), sourcePath: file.path,
        cost: await this.creditCost(), job: config.job, client: config.client,
      });
      this.reachable(true);
      this.deps.logger?.debug('studio claim', { path: file.path, key: file.key.slice(0, 12), result: result.kind });
      return this.verdict(file, result);
    } catch (error) {
      if (!this.defer(error, file)) throw error;
      return false;
    }
  }

  /** The ledger could not be asked whether the file is done: it waits like an unclaimed one. True if so handled. */
  isUnreachable(error: unknown): boolean {
    if (!isAppError(error) || error.code !== 'unavailable' || !this.shared) return false;
    this.reachable(false);
    return true;
  }

  /**
   * The ledger could not answer for this file (unreachable, or a database error): it waits and is looked at again,
   * never processed unclaimed. False on one machine (the error is the caller's).
   */
  defer(error: unknown, file: Pick<ClaimFile, 'key' | 'path'>): boolean {
    if (!this.shared) return false;
    if (!this.isUnreachable(error)) {
      this.folder.activity('failed', file.path, `the studio ledger could not claim it (tried again shortly): ${error instanceof Error ? error.message : String(error)}`);
    }
    this.waiting.set(file.key, file.path);
    return true;
  }

  /** A file claimed here ended (its outcome arrived, or it was given back): room for one from the backlog. */
  finished(key: string): void {
    if (!this.outstanding.delete(key)) return;
    const room = (this.deps.studioClaimAhead ?? 8) - this.outstanding.size;
    for (const [waitingKey, path] of [...this.backlog].slice(0, Math.max(0, room))) {
      this.backlog.delete(waitingKey);
      this.reconsider(path);
    }
  }

  /** Gives a claim back: the file was not submitted after all (the engine refused the batch, the folder was disarmed). */
  async giveBack(key: string): Promise<void> {
    if (!this.shared) return;
    await this.deps.ledger.release(key).catch(() => undefined);
  }

  /** Looks again at files whose claim another instance gave up or finished (the heartbeat calls this). */
  async recheck(): Promise<void> {
    if (this.waiting.size === 0) return;
    const settled = await this.deps.ledger.settledKeys([...this.waiting.keys()]).catch(() => null);
    if (!settled) return;
    this.deps.logger?.debug('studio recheck', { waiting: this.waiting.size, settled: settled.length });
    for (const key of settled) {
      const path = this.waiting.get(key);
      this.waiting.delete(key);
      this.told.delete(key);
      if (path) this.reconsider(path);
    }
  }

  /** The ledger answers again: everything that waited on it is looked at again. */
  reachable(value: boolean): void {
    const status = this.folder.status;
    const next = value ? 'connected' : 'unreachable';
    if (status.studio === next) return;
    status.studio = next;
    if (!value) status.reason = LEDGER_UNREACHABLE;
    else if (status.reason === LEDGER_UNREACHABLE) status.reason = null;
    this.deps.onStatusChange();
    if (!value) return;
    const paths = [...this.waiting.values()];
    this.waiting.clear();
    for (const path of paths) this.reconsider(path);
  }

  clear(): void {
    this.waiting.clear();
    this.told.clear();
    this.backlog.clear();
    this.outstanding.clear();
  }

  private verdict(file: ClaimFile, result: ClaimResult): boolean {
    switch (result.kind) {
      case 'claimed':
        this.waiting.delete(file.key);
        this.outstanding.add(file.key);
        return true;
      case 'done':
        this.folder.activity('skipped', file.path, `already processed by another Batchroom instance (${result.outcome})`);
        return false;
      case 'taken':
        this.waiting.set(file.key, file.path);
        if (!this.told.has(file.key)) {
          this.told.add(file.key);
          this.folder.activity('skipped', file.path, 'being processed by another Batchroom instance: picked up here if that one stops');
        }
        return false;
      case 'budget':
        this.folder.status.reason = `studio budget of ${result.budget} credits reached (${result.committed} spent or reserved by all instances)`;
        this.folder.activity('skipped', file.path, this.folder.status.reason);
        return false;
    }
  }

  private async creditCost(): Promise<number> {
    const workflowId = this.folder.config.workflowId;
    if (this.cost?.workflowId !== workflowId) this.cost = { workflowId, credits: await this.deps.engine.creditCost(workflowId).catch(() => 0) };
    return this.cost.credits;
  }
}
