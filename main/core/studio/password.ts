import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { KeytarLike } from '../secrets';
import type { LedgerTarget } from './ledger-url';

/** Keychain service name for studio ledger passwords; the account is the ledger's display URL. */
export const LEDGER_KEYCHAIN_SERVICE = 'Batchroom studio ledger';

export interface PasswordSources {
  env: Record<string, string | undefined>;
  /** The OS keychain (keytar); omitted where there is none (the lookup then just skips it). */
  keytar?: () => Promise<KeytarLike>;
}

/** `host:port:database:username:password` lines, `*` wildcards, `\:` and `\\` escapes — libpq's format. */
export function matchPgpass(text: string, target: Pick<LedgerTarget, 'host' | 'port' | 'database' | 'user'>): string | null {
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    const fields: string[] = [];
    let current = '';
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (ch === '\\' && i + 1 < line.length) { current += line[++i]; continue; }
      if (ch === ':' && fields.length < 4) { fields.push(current); current = ''; continue; }
      current += ch;
    }
    fields.push(current);
    if (fields.length !== 5) continue;
    const [host, port, database, user, password] = fields as [string, string, string, string, string];
    const hit = (pattern: string, value: string) => pattern === '*' || pattern === value;
    const hostHit = hit(host, target.host) || (host === 'localhost' && (target.host === '127.0.0.1' || target.host === '::1'));
    if (hostHit && hit(port, String(target.port)) && hit(database, target.database) && hit(user, target.user)) return password;
  }
  return null;
}

async function fromPgpass(target: LedgerTarget, env: PasswordSources['env']): Promise<string | null> {
  const file = env.PGPASSFILE ?? (process.platform === 'win32'
    ? join(env.APPDATA ?? homedir(), 'postgresql', 'pgpass.conf')
    : join(env.HOME ?? homedir(), '.pgpass'));
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return null;
  // libpq ignores a .pgpass others can read; so do we (the password would not be a secret).
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) return null;
  return matchPgpass(await readFile(file, 'utf8'), target);
}

/**
 * The password for the ledger, looked up in libpq's order plus the keychain: PGPASSWORD, then the .pgpass file
 * (PGPASSFILE or ~/.pgpass), then the keychain entry saved from the app. Null: connect without one (trust, peer or
 * certificate authentication). Never taken from the command line.
 */
export async function resolveLedgerPassword(target: LedgerTarget, sources: PasswordSources): Promise<string | null> {
  if (sources.env.PGPASSWORD) return sources.env.PGPASSWORD;
  const fromFile = await fromPgpass(target, sources.env);
  if (fromFile !== null) return fromFile;
  if (!sources.keytar) return null;
  try {
    return await (await sources.keytar()).getPassword(LEDGER_KEYCHAIN_SERVICE, target.display);
  } catch {
    return null;
  }
}
