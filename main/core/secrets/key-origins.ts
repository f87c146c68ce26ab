import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// A key from --api-key or BATCHROOM_API_KEY says nothing about the service it belongs to (a keychain key is filed
// under its service URL, so it is bound already). Trust on first use: the first service origin a key is sent to is
// remembered — by a fingerprint, never the key — and a later change of the configured service does not carry the
// key along silently: the user confirms (app) or names the service with the key (CLI `--service-url`).

export interface KeyOrigins {
  /** The origin `apiKey` was first used with, or null when it was never used. */
  originOf(apiKey: string): string | null;
  bind(apiKey: string, origin: string): void;
}

/** A one-way, short fingerprint: enough to recognise a key again, useless to recover it. */
export function keyFingerprint(apiKey: string): string {
  return createHash('sha256').update(`batchroom-key-origin:${apiKey}`).digest('hex').slice(0, 24);
}

export function createMemoryKeyOrigins(): KeyOrigins {
  const origins = new Map<string, string>();
  return {
    originOf: (apiKey) => origins.get(keyFingerprint(apiKey)) ?? null,
    bind: (apiKey, origin) => void origins.set(keyFingerprint(apiKey), origin),
  };
}

/** Kept in `<stateDir>/key-origins.json` (mode 0600, written atomically); an unreadable file counts as empty. */
export function createFileKeyOrigins(stateDir: string): KeyOrigins {
  const path = join(stateDir, 'key-origins.json');
  const read = (): Record<string, string> => {
    try {
      const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  return {
    originOf: (apiKey) => {
      const origin = read()[keyFingerprint(apiKey)];
      return typeof origin === 'string' ? origin : null;
    },
    bind(apiKey, origin) {
      const all = { ...read(), [keyFingerprint(apiKey)]: origin };
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
      renameSync(temp, path);
    },
  };
}
