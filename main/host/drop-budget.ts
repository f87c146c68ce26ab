import { UploadError } from './uploads';

// One drop (or one "Choose…" pick) of many photos is uploaded one file per request. The staging limits bound what
// all clients together may hold; this bounds a single drop, so one careless drag of a whole archive is refused up
// front with a way out (add the folder by path), not after gigabytes have moved and the staging area is full.

export interface DropAccount {
  files: number;
  bytes: number;
  readonly maxFiles: number;
  readonly maxBytes: number;
}

export interface DropLedger {
  /**
   * The account of drop `id` (a fresh one for a request without an id). `declared` is what the page says the whole
   * drop holds: a drop declared over the limits is refused at its first file.
   */
  open(id: string | null, declared: { files: number; bytes: number }): DropAccount;
}

/** Drops not seen for this long are forgotten (their files stay staged and counted by the staging budget). */
const IDLE_MS = 60 * 60_000;
const MAX_TRACKED_DROPS = 1_000;

export function dropTooLarge(account: Pick<DropAccount, 'maxFiles' | 'maxBytes'>, what: string): UploadError {
  const gib = Math.round((account.maxBytes / 2 ** 30) * 10) / 10;
  return new UploadError(413, `${what}; one drop may add at most ${account.maxFiles} photos and ${gib} GiB — add the folder by path instead, or drop fewer photos at once`);
}

export function createDropLedger(limits: { maxDropFiles: number; maxDropBytes: number }, now: () => number = Date.now): DropLedger {
  const drops = new Map<string, { account: DropAccount; seen: number }>();
  const fresh = (): DropAccount => ({ files: 0, bytes: 0, maxFiles: limits.maxDropFiles, maxBytes: limits.maxDropBytes });
  return {
    open(id, declared) {
      const account = fresh();
      if (declared.files > account.maxFiles) throw dropTooLarge(account, `this drop has ${declared.files} photos`);
      if (declared.bytes > account.maxBytes) throw dropTooLarge(account, `this drop holds ${Math.round(declared.bytes / 2 ** 30)} GiB`);
      if (!id) return account;
      const at = now();
      for (const [key, entry] of drops) {
        if (at - entry.seen > IDLE_MS || drops.size >= MAX_TRACKED_DROPS) drops.delete(key);
        else break; // insertion order ≈ age: the rest are newer
      }
      const entry = drops.get(id) ?? { account, seen: at };
      entry.seen = at;
      drops.delete(id);
      drops.set(id, entry); // most recently used last
      return entry.account;
    },
  };
}
