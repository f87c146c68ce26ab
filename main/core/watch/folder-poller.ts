import { Worker } from 'node:worker_threads';
import { POLL_WORKER_SOURCE } from './poll-worker-source';

/** What a poll saw of a path (the fields chokidar's fs.watchFile listeners read); all zeros when it is gone. */
export interface PolledStats { size: number; mtimeMs: number; ctimeMs: number; atimeMs: number; ino: number; mode: number; dir: boolean }

export interface FolderPollerOptions {
  /** A folder is stat'ed this often (chokidar's `interval`: how soon a new file is noticed)… */
  folderMs: number;
  /** …a file (a new photo until it settles) this often (chokidar's `binaryInterval`). */
  fileMs: number;
  /**
   * …but never more folder stats a second than this: past it the round stretches (2,000 folders at 4,000 a second: a
   * round every 500 ms). Each stat of a folder costs a few µs of CPU here however it is made (bench/scale-watch.ts
   * measures the bare statSync in the same run), so the folder count alone would otherwise set the idle CPU.
   */
  maxFolderStatsPerSecond: number;
  /** The thread failed (it should not: every stat is guarded): what it polled is no longer polled. */
  onError?: (error: Error) => void;
}

/**
 * The cap that keeps a large tree's idle CPU bounded whatever its folder count. A folder's stat costs 5–9 µs of CPU
 * from JavaScript here (the bare stat(2) 3.3 µs; bench/scale-watch.ts measures it in the same run), so 4,000 a
 * second is 2–3.5 % of a core, leaving the re-check of old files (≤ 0.5 %, snapshot-poller.ts) room under the 5 %
 * goal. It is also the rate the latency goal needs at 1,000 folders: a round every 250 ms, a new file noticed after
 * 125 ms on average (new file → submitted p50 ≤ 0.5 s with 200 ms of stability and the folder's readdir). At 3,000
 * a second (334 ms) the 100k bench read p50 493 ms at load 15: too close.
 */
export const MAX_FOLDER_STATS_PER_SECOND = 4_000;

type Listener = (curr: PolledStats, prev: PolledStats) => void;

/**
 * Polls paths for changes on one thread of its own (poll-worker-source.ts), in place of one fs.watchFile per path:
 * `watch` returns the stop function; the listener is called, on the main thread, with the new and the previous
 * stats each time a round saw a path's size, mtime, ctime, inode or mode differ (fs.watchFile's rule). close() ends
 * the thread. The thread keeps the process alive while any path is watched, as a persistent fs.watchFile does.
 */
export class FolderPoller {
  private readonly worker: Worker;
  private readonly listeners = new Map<number, Listener>();
  private readonly pongs = new Map<number, (info: PollerInfo) => void>();
  private readonly settles = new Map<number, (files: [number, PolledStats][]) => void>();
  /** The path each watch was made for (releaseQuiet answers with it). */
  private readonly paths = new Map<number, string>();
  private nextId = 1;
  private closed = false;

  constructor(options: FolderPollerOptions) {
    this.worker = new Worker(POLL_WORKER_SOURCE, { eval: true });
    this.worker.unref();
    const { onError, ...config } = options;
    this.worker.postMessage({ config });
    this.worker.on('message', (m: WorkerMessage) => {
      if (m.changes) {
        for (const [id, curr, prev] of m.changes) this.listeners.get(id)?.(curr, prev);
      } else if (m.settled !== undefined) {
        const answer = this.settles.get(m.settled);
        this.settles.delete(m.settled);
        answer?.(m.files ?? []);
      } else if (m.pong !== undefined) {
        const answer = this.pongs.get(m.pong);
        this.pongs.delete(m.pong);
        answer?.({ paths: m.paths ?? 0, folders: m.folders ?? 0, intervalMs: m.intervalMs ?? 0 });
      }
    });
    // A thread that fails must not take the app with it: its error goes to the watcher's, and the folder, blind now,
    // says so and is armed again by its availability check (folder-runtime.ts).
    this.worker.on('error', (error) => {
      this.settleAll();
      onError?.(Object.assign(new Error(`the folder poll stopped (${error.message})`), { pollThreadFailed: true }));
    });
    this.worker.on('exit', () => this.settleAll());
  }

  /**
   * `recheck`: a folder is reported changed once right after its first stat (the caller read it before that stat,
   * and what arrived in between would otherwise be in the baseline, never reported).
   */
  watch(path: string, listener: Listener, recheck = false): () => void {
    if (this.closed) return () => undefined;
    const id = this.nextId++;
    this.listeners.set(id, listener);
    this.paths.set(id, path);
    if (this.listeners.size === 1) this.worker.ref();
    this.worker.postMessage({ add: [id, path, recheck] });
    return () => {
      this.paths.delete(id);
      if (!this.listeners.delete(id) || this.closed) return;
      this.worker.postMessage({ remove: id });
      if (this.listeners.size === 0) this.worker.unref();
    };
  }

  /**
   * The files (not folders) no round has seen change for `quietMs`, with the stats they were last compared against:
   * no longer polled from now on (their listeners are dropped; their stop functions do nothing).
   */
  releaseQuiet(quietMs: number): Promise<Array<{ path: string; stats: PolledStats }>> {
    if (this.closed) return Promise.resolve([]);
    const n = this.nextId++;
    return new Promise((resolve) => {
      this.settles.set(n, (files) => {
        const released: Array<{ path: string; stats: PolledStats }> = [];
        for (const [id, stats] of files) {
          const path = this.paths.get(id);
          this.paths.delete(id);
          // Stopped meanwhile (its watch closed while the answer was on its way): not ours to hand on.
          if (this.listeners.delete(id) && path !== undefined) released.push({ path, stats });
        }
        if (this.listeners.size === 0 && !this.closed) this.worker.unref();
        resolve(released);
      });
      this.worker.postMessage({ settle: [n, quietMs] });
    });
  }

  /** Resolves once every path watched so far has had its first stat (its baseline), with what the thread holds. */
  settled(): Promise<PollerInfo> {
    if (this.closed) return Promise.resolve({ paths: 0, folders: 0, intervalMs: 0 });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pongs.set(id, resolve);
      this.worker.postMessage({ ping: id });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    // A thread inside a stat of a share that stopped answering cannot be interrupted: a disarm, a re-arm or a quit
    // must not wait for the share. It ends when the stat returns; unref'd, it keeps no process alive meanwhile.
    this.worker.unref();
    const ended = this.worker.terminate().then(() => undefined, () => undefined);
    await Promise.race([ended, new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
    this.settleAll();
  }

  private settleAll(): void {
    for (const answer of this.pongs.values()) answer({ paths: 0, folders: 0, intervalMs: 0 });
    this.pongs.clear();
    for (const answer of this.settles.values()) answer([]);
    this.settles.clear();
  }
}

export interface PollerInfo { paths: number; folders: number; intervalMs: number }

/** How long close() waits for the poll thread to end before it lets go of it. */
const CLOSE_WAIT_MS = 500;

/**
 * The poll thread failed: the folder no longer hears of new files. folder-runtime.ts then calls it unavailable under a
 * new generation (an arm under way must not call it armed) and its availability check arms it again.
 */
export const isPollThreadFailure = (error: Error): boolean => (error as { pollThreadFailed?: boolean }).pollThreadFailed === true;

interface WorkerMessage {
  changes?: [number, PolledStats, PolledStats][];
  settled?: number;
  files?: [number, PolledStats][];
  pong?: number;
  paths?: number;
  folders?: number;
  intervalMs?: number;
}
