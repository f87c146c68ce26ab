import { subfolderOf } from '../media/inside-root';

// How a hot folder cuts files into batches, in one place: the submitter sends these batches and the dry run names
// them, so the `{index}` the dry run shows is the `{index}` written (the engine counts it within a batch).

export interface FolderBatch<T> {
  /** The sub-folder ('/'-separated, '' for the folder itself): mirrored under the output folder. */
  rel: string;
  items: T[];
}

/** One batch per sub-folder (in the order the sub-folders first appear), each at most `max`, items in the order given. */
export function folderBatches<T>(items: readonly T[], pathOf: (item: T) => string, root: string, max: number): FolderBatch<T>[] {
  const bySub = new Map<string, T[]>();
  for (const item of items) {
    const rel = subfolderOf(root, pathOf(item));
    const list = bySub.get(rel) ?? [];
    list.push(item);
    bySub.set(rel, list);
  }
  const batches: FolderBatch<T>[] = [];
  const size = Math.max(1, Math.floor(max));
  for (const [rel, list] of bySub) {
    for (let start = 0; start < list.length; start += size) batches.push({ rel, items: list.slice(start, start + size) });
  }
  return batches;
}

/**
 * The files of one scan, in the scan's (sorted) order, cut into exactly the batches `folderBatches` makes of the
 * ones that turn out to need processing — while the scan still runs. Files are looked at several at a time and
 * finish out of order, so a candidate is held until every file before it has been looked at; a sub-folder's batch
 * leaves the moment it is full or the scan has looked at the sub-folder's last file. Without this, they were cut by
 * timing (a 150 ms window, 500 at most), and `{index}` in names depended on how fast the files were hashed.
 */
export class ScanBatches<T extends { path: string }> {
  private readonly position = new Map<string, number>();
  /** Each file's sub-folder, and where each sub-folder's last file is in the order. */
  private readonly relOf: string[];
  private readonly lastOf = new Map<string, number>();
  private readonly looked: boolean[];
  private readonly held = new Map<number, T>();
  private readonly open = new Map<string, T[]>();
  private next = 0;
  private over = false;

  constructor(
    private readonly order: readonly string[],
    root: string,
    private readonly max: number,
    private readonly send: (items: T[]) => void,
  ) {
    this.relOf = order.map((path, i) => {
      this.position.set(path, i);
      const rel = subfolderOf(root, path);
      this.lastOf.set(rel, i);
      return rel;
    });
    this.looked = order.map(() => false);
  }

  get active(): boolean {
    return !this.over;
  }

  /** Holds a candidate of this scan for its batch; false when the scan is not (or no longer) waiting for this path. */
  take(item: T): boolean {
    const i = this.position.get(item.path);
    if (this.over || i === undefined || i < this.next || this.held.has(i)) return false;
    this.held.set(i, item);
    return true;
  }

  /** The scan is done with this file (it was taken, or it needs nothing). */
  done(path: string): void {
    const i = this.position.get(path);
    if (i === undefined || this.over) return;
    this.looked[i] = true;
    this.advance();
  }

  /** The scan is over (finished or stopped): what is held leaves in the batches it makes. */
  end(): void {
    if (this.over) return;
    this.looked.fill(true);
    this.advance();
    this.over = true;
    for (const [rel, items] of [...this.open]) {
      this.open.delete(rel);
      if (items.length > 0) this.send(items);
    }
  }

  /** The folder was disarmed or closed: nothing more leaves; the candidates held are handed back. */
  drop(): T[] {
    this.over = true;
    const dropped = [...this.held.values(), ...[...this.open.values()].flat()];
    this.held.clear();
    this.open.clear();
    return dropped;
  }

  private advance(): void {
    const size = Math.max(1, Math.floor(this.max));
    while (this.next < this.order.length && this.looked[this.next]) {
      const at = this.next++;
      const item = this.held.get(at);
      this.held.delete(at);
      const rel = this.relOf[at]!;
      const list = this.open.get(rel) ?? [];
      if (item) list.push(item);
      if (list.length < size && this.lastOf.get(rel) !== at) {
        this.open.set(rel, list);
      } else {
        this.open.delete(rel);
        if (list.length > 0) this.send(list);
      }
    }
  }
}
