import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLedgerUrl } from '../../../main/core/studio/ledger-url';
import { LEDGER_KEYCHAIN_SERVICE, matchPgpass, resolveLedgerPassword } from '../../../main/core/studio/password';
import { createInMemoryKeytar } from '../../../main/core/secrets';

describe('parseLedgerUrl', () => {
  it.each([
    ['postgres://ana@nas.local/studio', { host: 'nas.local', port: 5432, database: 'studio', user: 'ana', sslmode: null, display: 'postgres://ana@nas.local:5432/studio' }],
    ['postgresql://db.example.com:6543/batch?sslmode=require', { host: 'db.example.com', port: 6543, user: 'postgres', sslmode: 'require' }],
    ['postgres://u@[::1]:5433/x', { host: '::1', port: 5433, display: 'postgres://u@[::1]:5433/x' }],
  ])('%s', (url, expected) => {
    expect(parseLedgerUrl(url)).toMatchObject(expected);
  });

  it.each([
    ['postgres://ana:secret@nas/studio', /no password/],
    ['mysql://nas/studio', /must start with postgres/],
    ['postgres://nas', /needs a host and a database/],
    ['not a url', /must look like/],
  ])('refuses %s', (url, message) => {
    expect(() => parseLedgerUrl(url)).toThrow(message);
  });

  it('never echoes a password it refuses', () => {
    expect(() => parseLedgerUrl('postgres://ana:s3cr3t-pw@nas/studio')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('s3cr3t-pw') }));
  });
});

describe('ledger password lookup', () => {
  const target = parseLedgerUrl('postgres://ana@nas.local:5432/studio');

  it.each([
    ['nas.local:5432:studio:ana:pw1', 'pw1'],
    ['*:*:*:ana:pw2', 'pw2'],
    ['nas.local:5432:other:ana:nope\n*:5432:studio:*:pw3', 'pw3'],
    ['nas.local:5432:studio:ana:with\\:colon', 'with:colon'],
    ['# comment\nnas.local:5432:studio:bob:nope', null],
  ])('.pgpass %j', (text, expected) => {
    expect(matchPgpass(text, target)).toBe(expected);
  });

  it('prefers PGPASSWORD, then .pgpass (only if private), then the keychain', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'br-pgpass-'));
    try {
      const file = join(dir, 'pgpass');
      await writeFile(file, '*:*:*:*:from-file\n');
      const keytar = createInMemoryKeytar();
      await keytar.setPassword(LEDGER_KEYCHAIN_SERVICE, target.display, 'from-keychain');
      const sources = (env: Record<string, string>) => ({ env: { PGPASSFILE: file, ...env }, keytar: async () => keytar });
      expect(await resolveLedgerPassword(target, sources({ PGPASSWORD: 'from-env' }))).toBe('from-env');
      await chmod(file, 0o644);
      expect(await resolveLedgerPassword(target, sources({}))).toBe('from-keychain');
      await chmod(file, 0o600);
      expect(await resolveLedgerPassword(target, sources({}))).toBe('from-file');
      expect(await resolveLedgerPassword(target, { env: { PGPASSFILE: join(dir, 'none') } })).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
