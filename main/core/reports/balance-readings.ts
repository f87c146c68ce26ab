import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Balance } from '../../../shared/service/model';
import { OWNER_ONLY_FILE_MODE } from '../settings/state-dir';
import type { ServiceClient } from '../service/types';
import { accountIdOf } from '../service/account-id';

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

export function openBalanceReadings(stateDir: string): BalanceReadings {
  const path = join(stateDir, BALANCE_READINGS_FILE);
  const last = new Map<string, BalanceReadingRecord>();
  const list = (): BalanceReadingRecord[] => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
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
    return readings.sort((a, b) => a.at.localeCompare(b.at));
  };
  return {
    record(reading) {
      const previous = last.get(reading.account);
      if (previous && previous.credits === reading.credits && Date.parse(reading.at) - Date.parse(previous.at) < SAME_BALANCE_GAP_MS) return;
      appendFileSync(path, `${JSON.stringify(reading)}\n`, { mode: OWNER_ONLY_FILE_MODE });
      last.set(reading.account, reading);
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
