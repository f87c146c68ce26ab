import { randomBytes } from 'node:crypto';
import { mimeOf, type EncodedResult } from './imaging/raster';

// Result files behind unguessable, expiring URLs, like the signed URLs of a real storage bucket. After expiry the
// bytes are freed and the token is remembered so the URL answers 410 Gone (unknown tokens answer 404). Results live
// in memory; a byte cap expires the oldest early so a long-running sandbox cannot grow without bound.

export interface StoredResult {
  data: Buffer;
  mime: string;
}

export type ResultLookup = { state: 'ok'; file: StoredResult } | { state: 'expired' } | { state: 'unknown' };

export class ResultStore {
  private readonly live = new Map<string, StoredResult[]>();
  private readonly expired = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private storedBytes = 0;

  constructor(
    private readonly origin: string,
    private readonly maxStoredBytes: () => number = () => Number.POSITIVE_INFINITY,
  ) {}

  /** Stores the files and returns their URLs; they expire after `ttlMs`. */
  add(results: EncodedResult[], ttlMs: number): string[] {
    const token = randomBytes(16).toString('hex');
    this.live.set(token, results.map((result) => ({ data: result.data, mime: mimeOf(result.format) })));
    this.storedBytes += results.reduce((sum, result) => sum + result.data.length, 0);
    // Map iteration is insertion order: the first entries are the oldest results.
    for (const oldest of this.live.keys()) {
      if (this.storedBytes <= this.maxStoredBytes() || oldest === token) break;
      this.expire(oldest);
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.expire(token);
    }, ttlMs);
    timer.unref();
    this.timers.add(timer);
    return results.map((result, index) => `${this.origin}/results/${token}/${index + 1}.${result.format === 'png' ? 'png' : 'jpg'}`);
  }

  expire(token: string): void {
    const files = this.live.get(token);
    if (!files) return;
    this.live.delete(token);
    this.storedBytes -= files.reduce((sum, file) => sum + file.data.length, 0);
    this.expired.add(token);
  }

  /** Expires every live result now (tests of a result URL gone before the next chain step); returns how many. */
  expireAll(): number {
    const tokens = [...this.live.keys()];
    for (const token of tokens) this.expire(token);
    return tokens.length;
  }

  /** A URL that answers 410 Gone: the result of a completed execution whose files expired in a sandbox now stopped. */
  goneUrl(): string {
    const token = randomBytes(16).toString('hex');
    this.expired.add(token);
    return `${this.origin}/results/${token}/1.jpg`;
  }

  get bytesStored(): number {
    return this.storedBytes;
  }

  /**
   * A URL of this store's own results, looked up without a network round trip (a real service reads its own storage
   * too): the lookup, or null when the URL is not one of this sandbox's result URLs.
   */
  lookupUrl(url: string): ResultLookup | null {
    const prefix = `${this.origin}/results/`;
    if (!url.startsWith(prefix)) return null;
    const [token = '', fileName = '', ...rest] = url.slice(prefix.length).split('/');
    return rest.length === 0 ? this.lookup(token, fileName) : { state: 'unknown' };
  }

  lookup(token: string, fileName: string): ResultLookup {
    if (this.expired.has(token)) return { state: 'expired' };
    const files = this.live.get(token);
    const index = Number(/^(\d+)\.(jpg|png)$/.exec(fileName)?.[1] ?? NaN) - 1;
    const file = files?.[index];
    return file ? { state: 'ok', file } : { state: 'unknown' };
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.live.clear();
    this.storedBytes = 0;
  }
}
