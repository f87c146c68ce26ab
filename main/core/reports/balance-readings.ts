import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Balance } from '../../../shared/service/model';
import { OWNER_ONLY_FILE_MODE } from '../settings/state-dir';
import type { ServiceClient } from '../service/types';
import { accountIdOf } from '../service/account-id';
import { BALANCE_KEEP_DAYS, BALANCE_MAX_BYTES, needsPrune, pruneReadingsFile, type PruneLimits } from './balance-prune';

// Every balance the service told this machine, with when and for which service account, one JSON line each in the
// state folder. The journal keeps only the latest balance evidence, and the report needs the balance at both ends of
// a period to hold Batchroom's charges against it. Appending a line is cheap and survives a crash; a line a crash cut
// short is skipped on reading.

export const BALANCE_READINGS_FILE = 'balance-readings.jsonl';

/** One reading: `account` is the service account id (service/account-id.ts: service URL + key, hashed). */
export interface BalanceReadingRecord {
  at: string;
  account: string;
  credits: number;
}

/** An unchanged balance is read often (the header, every estimate): one line per account a minute is enough then. */
const SAME_BALANCE_GAP_MS = 60_000;

export interface BalanceReadings {
  record(reading: BalanceReadingRecord): void;
  list(): BalanceReadingRecord[];
}

/** The readings in a file's text, sorted by time; a line a crash cut short is skipped. */
export function parseBalanceReadings(text: string): BalanceReadingRecord[] {
  const readings: BalanceReadingRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as Partial<BalanceReadingRecord>;
      if (typeof r.at === 'string' && typeof r.account === 'string' && typeof r.credits === 'number' && Number.isFinite(r.credits)) {
        readings.push({ at: r.at, account: r.account, credits: r.credits });
      }
    } catch {
      // A line cut short by a crash: the others still count.
    }
  }
  // ISO times compare as plain strings; localeCompare took a second for a year of readings.
  return readings.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

export interface BalanceReadingsOptions {
  now?: () => Date;
  /** What pruning keeps (balance-prune.ts); defaults: 400 days, 16 MB. */
  limits?: Partial<PruneLimits>;
  /** A prune that failed (a read-only state folder): logged, never fails opening or recording. */
  onError?: (error: unknown) => void;
}

export function openBalanceReadings(stateDir: string, options: BalanceReadingsOptions = {}): BalanceReadings {
  const path = join(stateDir, BALANCE_READINGS_FILE);
  const now = options.now ?? (() => new Date());
  const limits: PruneLimits = { keepDays: BALANCE_KEEP_DAYS, maxBytes: BALANCE_MAX_BYTES, ...options.limits };
  const last = new Map<string, BalanceReadingRecord>();
  // Checked when opened (each start of the app or a command) and again once a tenth of the cap was appended since,
  // so a long-running app prunes too without a stat per reading.
  let appendedSinceCheck = 0;
  const pruneIfNeeded = (): void => {
    appendedSinceCheck = 0;
    try {
      if (needsPrune(path, now(), limits)) pruneReadingsFile(path, now(), limits, parseBalanceReadings);
    } catch (error) {
      options.onError?.(error);
    }
  };
  pruneIfNeeded();
  const list = (): BalanceReadingRecord[] => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return parseBalanceReadings(text);
  };
  return {
    record(reading) {
      const previous = last.get(reading.account);
      if (previous && previous.credits === reading.credits && Date.parse(reading.at) - Date.parse(previous.at) < SAME_BALANCE_GAP_MS) return;
      const line = `${JSON.stringify(reading)}\n`;
      appendFileSync(path, line, { mode: OWNER_ONLY_FILE_MODE });
      last.set(reading.account, reading);
      appendedSinceCheck += Buffer.byteLength(line);
      if (appendedSinceCheck >= limits.maxBytes / 10) pruneIfNeeded();
    },
    list,
  };
}

/**
 * `client` with every balance it reads recorded (the credit guard, balance evidence, the header and `batchroom
 * balance` all read through it). A reading that cannot be written is logged by `onError`, never fails the read.
 */
export function recordingBalances(client: ServiceClient, readings: BalanceReadings, now: () => Date = () => new Date(),
  onError: (error: unknown) => void = () => undefined): ServiceClient {
  const wrapped = Object.create(client) as ServiceClient;
  return Object.assign(wrapped, {
    getBalance: async (...args: Parameters<ServiceClient['getBalance']>): Promise<Balance> => {
      const balance = await client.getBalance(...args);
      try {
        readings.record({ at: now().toISOString(), account: accountIdOf(client), credits: balance.apiCredits });
      } catch (error) {
        onError(error);
      }
      return balance;
    },
  });
}
