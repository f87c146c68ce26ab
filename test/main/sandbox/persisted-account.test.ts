import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteCreditLedger } from '../../../main/sandbox/credit-ledger';
import { SANDBOX_ACCOUNT_FILE, startEmbeddedSandbox } from '../../../main/sandbox/embedded';
import { sandboxApi, tinyImageDataUrl, waitForExecution } from '../../helpers/sandbox';

// The embedded sandbox keeps its account in the state folder: the same key and the same balance in every command,
// and two processes charging the one file at once lose no charge.

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const LEDGER = resolve(REPO_ROOT, 'main', 'sandbox', 'credit-ledger.ts');
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'batchroom-sandbox-account-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function embedded(stateDir: string) {
  const sandbox = await startEmbeddedSandbox({ stateDir });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

const execute = async (sandbox: { url: string; apiKey: string }) =>
  sandboxApi(sandbox)('/workflows/color-grade/execute', { body: { images: { photo: await tinyImageDataUrl() }, texts: { look: 'warm' } } });

describe('the embedded sandbox account', { timeout: 30_000 }, () => {
  it('keeps the key and the balance in the state folder across starts', async () => {
    const stateDir = await tempDir();
    const first = await embedded(stateDir);
    const accepted = await execute(first);
    expect(accepted.status).toBe(202);
    await waitForExecution(first, accepted.body.executionId);
    const spent = accepted.body.creditsCharged as number;
    await first.close();

    const second = await embedded(stateDir);
    expect(second.apiKey).toBe(first.apiKey);
    const balance = await sandboxApi(second)('/balance');
    expect(balance.body.apiCredits).toBe(1000 - spent);
    expect(existsSync(join(stateDir, SANDBOX_ACCOUNT_FILE))).toBe(true);
  });

  it('two sandboxes on one state folder spend one balance: what one spent the other cannot', async () => {
    const stateDir = await tempDir();
    const [a, b] = [await embedded(stateDir), await embedded(stateDir)];
    expect(b.apiKey).toBe(a.apiKey);
    const admin = (sandbox: { url: string; apiKey: string }, credits: number) =>
      fetch(`${sandbox.url.replace(/\/api\/v1$/, '')}/sandbox/credits`, {
        method: 'POST', headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ credits }),
      });
    expect((await admin(a, 1)).status).toBe(200);
    expect((await execute(a)).status).toBe(202);
    const refused = await execute(b);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_credits', available: 0 });
  });

  it('an execution a stopped sandbox charged is run by the next one on the state folder, once, and not charged again', async () => {
    const stateDir = await tempDir();
    const first = await embedded(stateDir);
    const accepted = await execute(first);
    expect(accepted.status).toBe(202);
    const id = accepted.body.executionId as string;
    // Another sandbox on the folder while the first still runs: the execution is not its to take.
    const bystander = await embedded(stateDir);
    expect((await sandboxApi(bystander)(`/executions/${id}`)).status).toBe(404);
    await first.close(); // as a command stopped by Ctrl-C: the execution was charged and never finished

    const [second, third] = [await embedded(stateDir), await embedded(stateDir)];
    const [asked, alsoAsked] = await Promise.all([sandboxApi(second)(`/executions/${id}`), sandboxApi(third)(`/executions/${id}`)]);
    // One sandbox takes it over; the other does not run it a second time.
    expect([asked.status, alsoAsked.status].sort()).toEqual([200, 404]);
    const owner = asked.status === 200 ? second : third;
    const done = await waitForExecution(owner, id);
    expect(done).toMatchObject({ status: 'completed', creditsCharged: accepted.body.creditsCharged });
    const result = await fetch(done.resultUrls[0]);
    expect(result.status).toBe(200);
    expect((await result.arrayBuffer()).byteLength).toBeGreaterThan(100);
    expect((await sandboxApi(owner)('/balance')).body.apiCredits).toBe(1000 - accepted.body.creditsCharged);
  });

  it('a sandbox without a state folder still starts every key afresh', async () => {
    const first = await startEmbeddedSandbox();
    cleanups.push(() => first.close());
    expect((await sandboxApi(first)('/balance')).body.apiCredits).toBe(1000);
  });
});

describe('the credit ledger file', { timeout: 60_000 }, () => {
  it('loses no charge when three processes charge it at once', async () => {
    const dir = await tempDir();
    const file = join(dir, SANDBOX_ACCOUNT_FILE);
    const go = join(dir, 'go');
    const script = join(dir, 'charge.mts');
    // Each process waits for the same start signal, then charges 1 credit 300 times and refunds 75 of them, as fast
    // as it can: a read-then-write without the transaction's lock would lose some of the other processes' writes.
    await writeFile(script, [
      `import { existsSync } from 'node:fs';`,
      `import { sqliteCreditLedger } from ${JSON.stringify(LEDGER)};`,
      `const ledger = sqliteCreditLedger({ path: ${JSON.stringify(file)}, startCredits: 10000 });`,
      `ledger.balance('sk_test_shared_key');`,
      `console.log('ready');`,
      `while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 5));`,
      `for (let i = 0; i < 300; i++) { ledger.charge('sk_test_shared_key', 1); if (i % 4 === 0) ledger.refund('sk_test_shared_key', 1); }`,
      `ledger.close();`,
    ].join('\n'));
    const children = [0, 1, 2].map(() => spawn(process.execPath, ['--import', 'tsx', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] }));
    cleanups.push(async () => children.forEach((child) => child.exitCode === null && child.kill('SIGKILL')));
    await Promise.all(children.map((child) => new Promise<void>((ready) => child.stdout!.once('data', () => ready()))));
    await writeFile(go, '');
    const codes = await Promise.all(children.map((child) => new Promise<number | null>((done) => child.once('exit', done))));
    expect(codes).toEqual([0, 0, 0]);
    const ledger = sqliteCreditLedger({ path: file, startCredits: 10000 });
    cleanups.push(async () => ledger.close());
    expect(ledger.balance('sk_test_shared_key')).toBe(10000 - 3 * (300 - 75));
  });

  it('refuses a charge the balance does not cover and deducts nothing', async () => {
    const ledger = sqliteCreditLedger({ path: join(await tempDir(), 'a.db'), startCredits: 2 });
    cleanups.push(async () => ledger.close());
    ledger.charge('k', 2);
    expect(() => ledger.charge('k', 1)).toThrow(/costs 1 credits but only 0/);
    expect(ledger.balance('k')).toBe(0);
    expect(ledger.balance('another')).toBe(2);
  });
});
