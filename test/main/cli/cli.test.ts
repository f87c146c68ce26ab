import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestSandbox } from '../../helpers/sandbox';
import { seedUnfinishedState, unfinishedStateNow } from '../../helpers/unfinished-state';
import { cliEnv, ndjson, runCli, startCli } from './run-cli';

// The real `batchroom` command against a sandbox running in this (the test) process: a separate process from the
// CLI, so Ctrl-C kills the CLI and not the service, as with a live service.

let dir: string;
let sandbox: RunningSandbox;
let photos: string;

async function makePhotos(folder: string, count: number): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (let i = 0; i < count; i++) {
    await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 30 * i, g: 90, b: 160 } } }).jpeg().toFile(join(folder, `p${i}.jpg`));
  }
}

/** Live mode against the test sandbox: the key through the environment, the URL through the flag. */
function live(stateName: string, key = sandbox.apiKey): { env: Record<string, string>; flags: string[] } {
  return { env: cliEnv(join(dir, stateName), { BATCHROOM_API_KEY: key }), flags: ['--service-url', sandbox.url] };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batchroom-cli-'));
  sandbox = await startTestSandbox({ executionDurationMs: 300 });
  photos = join(dir, 'photos');
  await makePhotos(photos, 3);
  await writeFile(join(photos, 'notes.txt'), 'not a photo');
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('batchroom CLI', { timeout: 90_000 }, () => {
  it('lists workflows, shows one, and reads the balance (live service, --json parsed)', async () => {
    const { env, flags } = live('state-catalog');
    const [list, one, balance, unknown] = await Promise.all([
      runCli([...flags, 'workflows', '--json'], env),
      runCli([...flags, 'workflow', 'color-grade'], env),
      runCli([...flags, '--json', 'balance'], env),
      runCli([...flags, '--debug', 'workflow', 'no-such-workflow'], env),
    ]);
    // An id the service does not know is a usage error (exit 2) with one line and a hint; --debug adds the stack.
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/batchroom: .*no-such-workflow.*\n {2}hint: `batchroom workflows`/);
    expect(unknown.stderr).toMatch(/\n\s+at /);
    expect(list.code, list.stderr).toBe(0);
    const workflows = JSON.parse(list.stdout) as Array<{ id: string; creditCost: number }>;
    expect(workflows.map((w) => w.id)).toContain('color-grade');
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/Color Grade \(color-grade\)/);
    expect(one.stdout).toMatch(/--text look=/);
    expect(balance.code, balance.stderr).toBe(0);
    expect(JSON.parse(balance.stdout)).toMatchObject({ apiCredits: expect.any(Number) });
    // Live mode says nothing about the sandbox.
    expect(list.stderr).not.toMatch(/sandbox/);
  });

  it('runs against the embedded sandbox when there is no key and no service URL, and says so', async () => {
    const result = await runCli(['workflows', '--tag', 'color'], cliEnv(join(dir, 'state-embedded')));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/built-in sandbox/);
    // Sandbox credits are called what they are everywhere: free test credits (not "no credits spent").
    expect(result.stderr).toMatch(/free test credits/);
    expect(result.stderr).not.toMatch(/no credits spent/);
    expect(result.stdout).toMatch(/color-grade/);
    expect(result.stdout).not.toMatch(/product-backdrop/);
  });

  it('answers usage errors with exit 2 and one line plus a hint', async () => {
    const { env, flags } = live('state-usage');
    const [noWorkflow, badField, unknownCommand, badPort, badAspect, missingText, missingPath] = await Promise.all([
      runCli([...flags, 'run', '--out', dir, photos], env),
      runCli([...flags, 'run', '--workflow', 'color-grade', '--text', 'nosuch=1', '--out', dir, photos], env),
      runCli(['frobnicate'], env),
      runCli(['ui', '--port', 'abc'], env),
      runCli([...flags, 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--aspect', '5:4', '--yes', '--out', dir, photos], env),
      runCli([...flags, 'run', '--workflow', 'color-grade', '--yes', '--out', dir, photos], env),
      runCli([...flags, 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', '--out', dir, join(dir, 'no-such-folder')], env),
    ]);
    for (const r of [noWorkflow, badField, unknownCommand, badPort, badAspect, missingText, missingPath]) expect(r.code, r.stderr).toBe(2);
    // A path that does not exist is named, not reported as "Nothing to process".
    expect(missingPath.stderr).toContain(`not found: ${join(dir, 'no-such-folder')}`);
    expect(missingPath.stdout).not.toMatch(/Nothing to process/);
    expect(missingText.stderr).toMatch(/color-grade needs --text look=/);
    expect(noWorkflow.stderr).toMatch(/--workflow/);
    expect(badField.stderr).toMatch(/no text field "nosuch" \(text fields: look/);
    expect(badField.stderr).toMatch(/hint: `batchroom workflow color-grade`/);
    expect(badAspect.stderr).toMatch(/--aspect must be one of/);
    for (const r of [badField, badPort, badAspect]) expect(r.stderr).not.toMatch(/\n\s+at /); // no stack without --debug
  });

  it('exits 3 on a rejected key without printing it, and 4 when the batch does not fit the budget or the balance', async () => {
    const wrongKey = 'sk_live_thisKeyIsWrong9876';
    const rejected = live('state-auth');
    const budget = live('state-budget');
    const poor = await startTestSandbox({ credits: 2 });
    const poorEnv = cliEnv(join(dir, 'state-poor'), { BATCHROOM_API_KEY: poor.apiKey });
    const [auth, overBudget, overBalance] = await Promise.all([
      // The flag wins over BATCHROOM_API_KEY, and is warned about (process lists show it).
      runCli([...rejected.flags, '--api-key', wrongKey, 'balance'], rejected.env),
      runCli([...budget.flags, 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--budget', '1', '--yes', '--out', join(dir, 'out-budget'), photos], budget.env),
      runCli(['--service-url', poor.url, 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--yes', '--out', join(dir, 'out-poor'), photos], poorEnv),
    ]).finally(() => poor.close());
    expect(auth.code, auth.stderr).toBe(3);
    expect(auth.stderr).toMatch(/hint:/);
    expect(auth.stderr).toMatch(/--api-key is visible to other users/);
    expect(auth.stderr + auth.stdout).not.toContain(wrongKey);
    expect(overBudget.code, overBudget.stderr).toBe(4);
    expect(overBudget.stderr).toMatch(/budget/);
    expect(existsSync(join(dir, 'out-budget'))).toBe(false);
    expect(overBalance.code, overBalance.stderr).toBe(4);
    // A test key spends free test credits, and the message says so.
    expect(overBalance.stderr).toMatch(/costs 3 free test credits but the balance is 2 free test credits/);
    expect(poor.stats().executionsCreated).toBe(0);
  });

  it('runs a batch with --json: NDJSON events, the summary line last, results on disk (exit 0)', async () => {
    const { env, flags } = live('state-run');
    const out = join(dir, 'out-run');
    const result = await runCli([...flags, '--json', 'run', '--workflow', 'color-grade', '--text', 'look=warm', '--size', '1K', '--yes', '--out', out, photos], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = ndjson(result.stdout);
    expect(lines[0]).toMatchObject({ type: 'estimate', itemCount: 3, totalCost: 3 });
    // Each finished item has exactly one line (from the outcome outbox), with its attempt and its result.
    const finished = lines.filter((l) => l.type === 'item' && ['saved', 'failed', 'unknown', 'cancelled', 'skipped'].includes(l.state as string));
    expect(finished.map((l) => [l.state, l.attempt]).sort()).toEqual([['saved', 1], ['saved', 1], ['saved', 1], ['skipped', 1]]);
    expect(new Set(finished.map((l) => l.id)).size).toBe(4);
    const saved = finished.filter((l) => l.state === 'saved');
    expect(saved.every((l) => (l.outputs as string[]).length === 1 && (l.outputs as string[])[0]!.startsWith(out))).toBe(true);
    const last = lines[lines.length - 1]!;
    expect(Object.keys(last)).toEqual(['type', 'saved', 'failed', 'skipped', 'unknown', 'chargedNoResult', 'creditsSpent', 'outputs', 'paidElsewhere']);
    expect(last).toMatchObject({ type: 'summary', saved: 3, failed: 0, skipped: 1, unknown: 0, creditsSpent: 3 });
    expect((await readdir(out)).sort()).toEqual(['p0_color-grade.jpg', 'p1_color-grade.jpg', 'p2_color-grade.jpg']);
    expect((last.outputs as string[]).every((p) => p.startsWith(out))).toBe(true);
  });

  it('report: nothing charged without a result after a clean run, and --out never replaces a file', async () => {
    const { env, flags } = live('state-run');
    // One engine per state dir: one after another.
    const plain = await runCli([...flags, 'report'], env);
    const json = await runCli([...flags, '--json', 'report'], env);
    const taken = await runCli([...flags, 'report', '--out', photos], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('No execution was charged without a result.');
    expect(json.code).toBe(0);
    expect(json.stdout.trim()).toBe('');
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toMatch(/exists already/);
  });

  it('pays once for the same run twice, again only with --rerun, and offers a photo again when its result is gone', { timeout: 180_000 }, async () => {
    const { env, flags } = live('state-done');
    const input = join(dir, 'photos-done');
    await makePhotos(input, 3);
    const out = join(dir, 'out-done');
    const run = (json: boolean, ...runFlags: string[]) =>
      runCli([...flags, ...(json ? ['--json'] : []), 'run', ...runFlags, '--workflow', 'color-grade', '--text', 'look=cool', '--yes', '--out', out, input], env);
    const executions = () => sandbox.stats().executionsCreated;
    const before = executions();

    const first = await run(true);
    expect(first.code, first.stderr).toBe(0);
    expect(ndjson(first.stdout).at(-1)).toMatchObject({ type: 'summary', saved: 3, creditsSpent: 3 });
    expect(executions() - before).toBe(3);

    const second = await run(false);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(new RegExp(`3 already done on \\d{4}-\\d{2}-\\d{2} — results in ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: skipped`));
    expect(`${second.stdout}${second.stderr}`).toMatch(/Nothing to process\. Pass --rerun to run the 3 already done again \(3 credits\)/);
    expect(executions() - before).toBe(3);
    expect((await readdir(out)).sort()).toEqual(['p0_color-grade.jpg', 'p1_color-grade.jpg', 'p2_color-grade.jpg']);

    await rm(join(out, 'p1_color-grade.jpg'));
    const refill = await run(true);
    expect(refill.code, refill.stderr).toBe(0);
    const refillLines = ndjson(refill.stdout);
    expect(refillLines[0]).toMatchObject({ type: 'estimate', itemCount: 1, totalCost: 1, resultsGone: [{ path: join(input, 'p1.jpg') }] });
    expect(refillLines.at(-1)).toMatchObject({ type: 'summary', saved: 1, creditsSpent: 1 });
    expect(executions() - before).toBe(4);

    const rerun = await run(true, '--rerun');
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(ndjson(rerun.stdout).at(-1)).toMatchObject({ type: 'summary', saved: 3, creditsSpent: 3 });
    expect(executions() - before).toBe(7);
    expect((await readdir(out)).filter((n) => n.includes(' (2)')).sort()).toEqual(['p0_color-grade (2).jpg', 'p1_color-grade (2).jpg', 'p2_color-grade (2).jpg']);
  });

  it('--try 2 runs two photos spread across the selection and says how to continue; the same command without it runs only the rest', { timeout: 120_000 }, async () => {
    const { env, flags } = live('state-try');
    const input = join(dir, 'photos-try');
    await makePhotos(input, 6);
    const out = join(dir, 'out-try');
    const run = (...extra: string[]) => runCli([...flags, 'run', ...extra, '--workflow', 'color-grade', '--text', 'look=warm', '--yes', '--out', out, input], env);
    const before = sandbox.stats().executionsCreated;
    const tried = await run('--try', '2');
    expect(tried.code, tried.stderr).toBe(0);
    expect(tried.stdout).toMatch(/try first: 2 photos now \(2 free test credits\), 4 more when you continue \(4 free test credits\)/);
    // Word-wrapped at 80 columns: read as one text.
    expect(tried.stdout.replace(/\s+/g, ' ')).toMatch(/To continue with the other 4 \(4 free test credits\), run the same command without --try/);
    expect((await readdir(out)).sort()).toEqual(['p1_color-grade.jpg', 'p4_color-grade.jpg']);
    const rest = await run();
    expect(rest.code, rest.stderr).toBe(0);
    expect((await readdir(out)).length).toBe(6);
    expect(sandbox.stats().executionsCreated - before).toBe(6);
    expect((await run('--try', 'many')).code).toBe(2);
  });

  it('exits 1 when items fail, listing the reason', async () => {
    const failing = await startTestSandbox({ executionDurationMs: 100, faults: { executionFailureRate: 1 } });
    try {
      const env = cliEnv(join(dir, 'state-fail'), { BATCHROOM_API_KEY: failing.apiKey });
      const result = await runCli(['--service-url', failing.url, 'run', '--workflow', 'auto-enhance', '--yes', '--out', join(dir, 'out-fail'), join(photos, 'p0.jpg')], env);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toMatch(/Failed:\n\s+p0\.jpg: /);
    } finally {
      await failing.close();
    }
  });

  it('Ctrl-C keeps the batch (exit 130); resume finishes it without resubmitting', async () => {
    const slow = await startTestSandbox({ executionDurationMs: 4000 });
    try {
      const env = cliEnv(join(dir, 'state-interrupt'), { BATCHROOM_API_KEY: slow.apiKey });
      const flags = ['--service-url', slow.url, '--json'];
      const out = join(dir, 'out-interrupt');
      const run = startCli([...flags, 'run', '--workflow', 'color-grade', '--text', 'look=cool', '--yes', '--out', out, photos], env);
      const submitted = new Set<string>();
      run.onLine((line) => {
        const event = JSON.parse(line) as { type: string; id?: string; executionId?: string | null };
        if (event.type === 'item' && event.executionId) submitted.add(event.id!);
        if (submitted.size === 3 && run.child.exitCode === null) run.child.kill('SIGINT');
      });
      const interrupted = await run.done;
      expect(interrupted.code, interrupted.stderr).toBe(130);
      expect(interrupted.stderr).toMatch(/batchroom resume/);
      expect(interrupted.stdout).not.toMatch(/"type":"summary"/);
      expect(slow.stats().executionsCreated).toBe(3);

      const resumed = await runCli([...flags, 'resume'], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      const summary = ndjson(resumed.stdout).pop();
      expect(summary).toMatchObject({ type: 'summary', saved: 3, failed: 0, unknown: 0 });
      expect(slow.stats().executionsCreated).toBe(3); // nothing was submitted twice
      expect((await readdir(out)).length).toBe(3);

      const again = await runCli([...flags, 'resume'], env);
      expect(again.code).toBe(0);
      expect(ndjson(again.stdout).pop()).toMatchObject({ type: 'summary', saved: 0 });
    } finally {
      await slow.close();
    }
  });

  /** `batchroom --json ui` serving a stand-in page from its own renderer folder; resolves with its first stdout line. */
  async function startUi(name: string): Promise<{ ui: ReturnType<typeof startCli>; first: string }> {
    const rendererDir = join(dir, `renderer-${name}`);
    await mkdir(rendererDir, { recursive: true });
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Batchroom test UI</title>');
    const { env, flags } = live(`state-${name}`);
    const ui = startCli([...flags, '--json', 'ui'], { ...env, BATCHROOM_RENDERER_DIR: rendererDir });
    return { ui, first: await new Promise<string>((resolve) => ui.onLine(resolve)) };
  }

  it('ui --json prints the URL first and serves the page until Ctrl-C', async () => {
    const { ui, first } = await startUi('ui');
    const { url } = JSON.parse(first) as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Batchroom test UI');
    expect((await fetch(url.replace(/\?token=.*/, ''))).status).toBe(401);
    ui.child.kill('SIGINT');
    expect((await ui.done).code).toBe(0);
  });

  it('ui reads the catalog once as soon as the service is up, before any page asks (the HTTP client is warm for the page)', async () => {
    const catalogReads = () => sandbox.stats().requestsByRoute['GET /api/v1/workflows'] ?? 0;
    const before = catalogReads();
    const { ui } = await startUi('ui-warm');
    try {
      await expect.poll(catalogReads, { timeout: 10_000 }).toBeGreaterThan(before);
    } finally {
      ui.child.kill('SIGINT');
      expect((await ui.done).code).toBe(0);
    }
  });

  it('ui stops cleanly on a Ctrl-C that comes the moment the URL is printed (the core may still be starting)', async () => {
    const { ui } = await startUi('ui-early');
    ui.child.kill('SIGINT');
    const done = await ui.done;
    expect(done.code).toBe(0);
    expect(done.stderr).toContain('stopping');
  });

  it('a Ctrl-C before the core is up does not go on to open the journal (no recovery, no armed hot folders)', async () => {
    const { ui } = await startUi('ui-no-journal');
    ui.child.kill('SIGINT');
    const done = await ui.done;
    expect(done.code).toBe(0);
    expect(done.stderr).toContain('stopping');
    expect(existsSync(join(dir, 'state-ui-no-journal', 'journal.db'))).toBe(false);
  });

  it('a Ctrl-C while the core waits for the page (service up, journal not yet open) stops at once, the journal unopened', async () => {
    const catalogReads = () => sandbox.stats().requestsByRoute['GET /api/v1/workflows'] ?? 0;
    const before = catalogReads();
    const { ui } = await startUi('ui-service-up');
    await expect.poll(catalogReads, { timeout: 10_000 }).toBeGreaterThan(before); // the warm-up: the service is up
    const stateDir = join(dir, 'state-ui-service-up');
    expect(existsSync(join(stateDir, 'journal.db'))).toBe(false); // the runtime waits up to 1.5 s for a page
    const interruptedAt = Date.now();
    ui.child.kill('SIGINT');
    const done = await ui.done;
    expect(done.code).toBe(0);
    expect(existsSync(join(stateDir, 'journal.db'))).toBe(false);
    // Not held up by the 1.5 s wait for a page (≈ 30–60 ms here; the grace timer left running took ≈ 1.3 s).
    expect(Date.now() - interruptedAt).toBeLessThan(1000);
  });

  it('a Ctrl-C while the journal, engine and hot folders load stops the start there: nothing submitted, the journal as it was, exit 0', async () => {
    const name = 'ui-loading';
    const stateDir = join(dir, `state-${name}`);
    // A photo waiting in a running batch (sent as soon as the engine schedules), and a hot folder of 300 photos,
    // which arming scans for up to a second (≈ 1 s here): the Ctrl-C below lands while the core is still starting.
    const seeded = await seedUnfinishedState(stateDir, join(dir, name), sandbox, 300);
    const executes = () => sandbox.stats().requestsByRoute['POST /api/v1/workflows/:id/execute'] ?? 0;
    const before = executes();
    const { ui } = await startUi(name);
    // The engine lock is taken just before the journal opens: past the wait for a page, the rest still to come.
    await expect.poll(() => existsSync(join(stateDir, 'engine.lock')), { timeout: 20_000, interval: 5 }).toBe(true);
    ui.child.kill('SIGINT');
    const done = await ui.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('stopping');
    expect(existsSync(join(stateDir, 'engine.lock'))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a submission on its way would have arrived
    // Without the signal the core finished starting first: the waiting photo went out (paid) after the Ctrl-C.
    expect(executes()).toBe(before);
    expect(unfinishedStateNow(stateDir, seeded)).toMatchObject({ pending: 'pending' });
  });

  it('a Ctrl-C once the core is up (journal open) still shuts it down gracefully', async () => {
    const { ui } = await startUi('ui-core-up');
    await expect.poll(() => existsSync(join(dir, 'state-ui-core-up', 'journal.db')), { timeout: 20_000 }).toBe(true);
    ui.child.kill('SIGINT');
    const done = await ui.done;
    expect(done.code).toBe(0);
    expect(done.stderr).toContain('stopping');
  });
});
