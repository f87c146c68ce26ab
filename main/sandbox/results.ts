import { randomBytes } from 'node:crypto';
import { mimeOf, type EncodedResult } from './imaging/raster';

// Result files behind unguessable, expiring URLs, like the signed URLs of a real storage bucket. After expiry the
// bytes are freed and the token is remembered so the URL answers 410 Gone (unknown tokens answer 404).

export interface StoredResult {
  data: Buffer;
  mime: string;
}

export type ResultLookup = { state: 'ok'; file: StoredResult } | { state: 'expired' } | { state: 'unknown' };

export class ResultStore {
  private readonly live = new Map<string, StoredResult[]>();
  private readonly expired = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly origin: string) {}

  /** Stores the files and returns their URLs; they expire after `ttlMs`. */
  add(results: EncodedResult[], ttlMs: number): string[] {
    const token = randomBytes(16).toString('hex');
    this.live.set(token, results.map((result) => ({ data: result.data, mime: mimeOf(result.format) })));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.expire(token);
    }, ttlMs);
    timer.unref();
    this.timers.add(timer);
    return results.map((result, index) => `${this.origin}/results/${token}/${index + 1}.${result.format === 'png' ? 'png' : 'jpg'}`);
  }

  expire(token: string): void {
    if (this.live.delete(token)) this.expired.add(token);
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
  }
}
