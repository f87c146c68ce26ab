import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

// Polling-mode folders (network shares, where change events are unreliable) find new files here. chokidar polls
// every file it knows with fs.watchFile, so its interval must stay slow (thousands of stats per interval on a
// share), and it finds new files only at that pace too. This looks at each watched folder's own mtime — one stat per
// folder — much more often, and reads a listing only when it changed. A new file is then followed like chokidar's
// awaitWriteFinish does (size unchanged for the stability threshold) and reported; chokidar reports the same file
// again later, which `ReportOnce` passes on only if the file changed in between.

export interface NewFilePollerOptions {
  /** The folders being watched, each with the names chokidar already knows in it (built afresh on each call). */
  watched(): Record<string, string[]>;
  /** The folder list is taken from `watched()` again after this many looks (and whenever a listing changed). */
  refreshDirsEvery?: number;
  ignored(path: string): boolean;
  intervalMs: number;
  writePollMs: number;
  stabilityThresholdMs: number;
  onFile(path: string): void;
}

export class NewFilePoller {
  private readonly mtimes = new Map<string, number>();
  private readonly following = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private closed = false;
  /** Folders to look at, from `watched()`: asking for it lists every name chokidar knows, so not on every look. */
  private dirs: string[] = [];
  private looksUntilRefresh = 0;

  constructor(private readonly options: NewFilePollerOptions) {}

  /** Notes every folder's mtime now (what is there already is chokidar's), then looks every interval. */
  async start(): Promise<void> {
    await this.look();
    if (this.closed) return;
    this.timer = setInterval(() => void this.look(), this.options.intervalMs);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.following.clear();
  }

  private async look(): Promise<void> {
    if (this.busy || this.closed) return;
    this.busy = true;
    try {
      if (this.looksUntilRefresh-- <= 0) {
        this.dirs = Object.keys(this.options.watched());
        this.looksUntilRefresh = this.options.refreshDirsEvery ?? 8;
      }
      let watched: Record<string, string[]> | null = null;
      for (const dir of this.dirs) {
        const info = await stat(dir).catch(() => null);
        if (!info?.isDirectory()) continue;
        const before = this.mtimes.get(dir);
        this.mtimes.set(dir, info.mtimeMs);
        if (before === undefined || before === info.mtimeMs) continue;
        watched ??= this.options.watched();
        // A new subfolder is looked at from the next look on.
        this.looksUntilRefresh = 0;
        const known = new Set(watched[dir] ?? []);
        for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
          const path = join(dir, entry.name);
          if (!entry.isFile() || known.has(entry.name) || this.following.has(path) || this.options.ignored(path)) continue;
          this.follow(path);
        }
      }
    } finally {
      this.busy = false;
    }
  }

  /** Reports `path` once its size has stayed the same for the stability threshold (a vanished file is dropped). */
  private follow(path: string): void {
    this.following.add(path);
    let size = -1;
    let lastChange = Date.now();
    const check = async () => {
      if (this.closed || !this.following.has(path)) return;
      const info = await stat(path).catch(() => null);
      if (!info?.isFile()) {
        this.following.delete(path);
        return;
      }
      const now = Date.now();
      if (info.size !== size) {
        if (size !== -1) lastChange = now;
        size = info.size;
      }
      if (now - lastChange >= this.options.stabilityThresholdMs) {
        this.following.delete(path);
        if (!this.closed) this.options.onFile(path);
        return;
      }
      setTimeout(() => void check(), this.options.writePollMs).unref();
    };
    setTimeout(() => void check(), this.options.writePollMs).unref();
  }
}

/**
 * Passes on each (path, size, mtime) once: the poller and chokidar both report a new file in polling mode, and the
 * second report of an unchanged file must not reach the pipeline (it would say "already processed"). Memory of a
 * report lasts `forgetMs`, longer than chokidar takes to catch up.
 */
export class ReportOnce {
  private readonly seen = new Map<string, { fingerprint: string; at: number }>();

  constructor(private readonly forgetMs: number) {}

  async pass(path: string, stats?: { size: number; mtimeMs: number }): Promise<boolean> {
    const info = stats ?? (await stat(path).catch(() => null));
    if (!info) return true;
    const now = Date.now();
    // Oldest first (every report moves its path to the end): stop at the first one still remembered.
    for (const [key, value] of this.seen) {
      if (now - value.at <= this.forgetMs) break;
      this.seen.delete(key);
    }
    const fingerprint = `${info.size}:${Math.trunc(info.mtimeMs)}`;
    if (this.seen.get(path)?.fingerprint === fingerprint) return false;
    this.seen.delete(path);
    this.seen.set(path, { fingerprint, at: now });
    return true;
  }
}
