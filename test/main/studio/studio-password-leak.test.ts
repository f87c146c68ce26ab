import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInMemoryKeytar } from '../../../main/core/secrets';
import { createStudioHandlers } from '../../../main/core/studio/handlers';
import { testStudioConnection } from '../../../main/core/studio/inspect';
import { parseLedgerUrl } from '../../../main/core/studio/ledger-url';
import { isLoopbackLedgerHost, requireLedgerTls } from '../../../main/core/studio/ledger-tls';
import { SettingsPatchSchema } from '../../../shared/settings/schema';

// Issue 30 item 5: `studio:testConnection` takes its URL from the renderer. It once sent PGPASSWORD (or a wildcard
// ~/.pgpass line) in clear text to whatever host and port it was given. A fake PostgreSQL on 127.0.0.1 asks for a
// cleartext password and records every byte the client sends.

const SECRET = 'pg-Secret-0f9e8d7c';

interface FakePg { server: Server; port: number; received: () => string }

function startFakePg(): Promise<FakePg> {
  const chunks: Buffer[] = [];
  const server = createServer((socket) => {
    let askedForPassword = false;
    socket.on('error', () => undefined);
    socket.on('data', (data: Buffer) => {
      chunks.push(data);
      if (!askedForPassword) {
        askedForPassword = true;
        // AuthenticationCleartextPassword: 'R', length 8, code 3.
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
        return;
      }
      // Whatever came (the 'p' message): refuse the login (28P01) and hang up.
      const fields = Buffer.from('SFATAL\0C28P01\0Mpassword authentication failed\0\0');
      const head = Buffer.alloc(5);
      head.write('E', 0);
      head.writeInt32BE(fields.length + 4, 1);
      socket.end(Buffer.concat([head, fields]));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const port = (server.address() as { port: number }).port;
    resolve({ server, port, received: () => Buffer.concat(chunks).toString('latin1') });
  }));
}

let fake: FakePg;
let home: string;
beforeAll(async () => {
  fake = await startFakePg();
  home = mkdtempSync(join(tmpdir(), 'br-studio-leak-'));
});
afterAll(async () => {
  await new Promise((resolve) => fake.server.close(resolve));
  rmSync(home, { recursive: true, force: true });
});

function handlers(saved: string | null) {
  const keytar = createInMemoryKeytar();
  return createStudioHandlers({ ledgerUrl: () => saved, env: { HOME: home, PGPASSWORD: SECRET }, keytar: async () => keytar });
}

describe('the studio ledger password goes only to the saved ledger', () => {
  it('a test of a host/port other than the saved ledger gets no password', async () => {
    const url = `postgres://u@127.0.0.1:${fake.port}/db`;
    const before = fake.received().length;
    const result = await handlers('postgres://u@127.0.0.1:1/db')['studio:testConnection']({ url });
    const sent = fake.received().slice(before);
    expect(sent).toContain('user\0u\0'); // the fake did hear the client …
    expect(sent).not.toContain(SECRET); // … and never the password
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/save this URL in Settings first/);
  });

  it('the saved ledger itself still gets it (the fake does capture passwords)', async () => {
    const url = `postgres://u@127.0.0.1:${fake.port}/db`;
    const before = fake.received().length;
    await handlers(url)['studio:testConnection']({ url });
    expect(fake.received().slice(before)).toContain(SECRET);
  });

  it('refuses ?password= in the URL, in the parser and in settings', () => {
    expect(() => parseLedgerUrl('postgres://u@db.example/studio?password=hunter2')).toThrow(/no password/);
    expect(() => parseLedgerUrl('postgres://u@db.example/studio?sslmode=require&PASSWORD=x')).toThrow(/no password/);
    expect(SettingsPatchSchema.safeParse({ studioLedgerUrl: 'postgres://u@db.example/studio?password=hunter2' }).success).toBe(false);
    expect(SettingsPatchSchema.safeParse({ studioLedgerUrl: 'postgres://u@db.example/studio?sslmode=require' }).success).toBe(true);
  });

  it('refuses a non-loopback ledger without TLS before connecting, unless Settings allow it', async () => {
    const started = Date.now();
    // 192.0.2.1 (TEST-NET-1) never answers: a refusal this fast was made before any connection.
    const result = await testStudioConnection('postgres://u@192.0.2.1/db', { env: { HOME: home, PGPASSWORD: SECRET } });
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/sslmode=require/);
    expect(Date.now() - started).toBeLessThan(2_000);
    const target = (url: string) => parseLedgerUrl(url);
    expect(() => requireLedgerTls(target('postgres://u@db.example/x?sslmode=prefer'), false)).toThrow(/sslmode=require/);
    expect(() => requireLedgerTls(target('postgres://u@db.example/x?sslmode=require'), false)).not.toThrow();
    expect(() => requireLedgerTls(target('postgres://u@db.example/x?sslmode=verify-full'), false)).not.toThrow();
    expect(() => requireLedgerTls(target('postgres://u@db.example/x'), true)).not.toThrow();
    expect(() => requireLedgerTls(target('postgres://u@127.0.0.2/x'), false)).not.toThrow();
    expect(['localhost', '127.0.0.1', '::1'].every(isLoopbackLedgerHost)).toBe(true);
    expect(['db.localhost', '10.0.0.1', '::ffff:127.0.0.1', '128.0.0.1'].some(isLoopbackLedgerHost)).toBe(false);
  });
});
