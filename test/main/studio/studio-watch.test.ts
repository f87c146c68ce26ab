import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../main/sandbox/index';
import { startTestPostgres, type TestPostgres } from '../../helpers/pg-server';
import { startTestSandbox } from '../../helpers/sandbox';
import { until } from '../../helpers/until';
import { cliEnv, startCli, type CliProcess } from '../cli/run-cli';
import { removeDir, tempDir } from '../watch/fakes';

// Studio mode as a studio runs it: several `batchroom watch` processes (each its own "machine": its own state dir
// and local journal) on one shared folder, one PostgreSQL ledger, one service. Each photo is paid for once.

let dir: string;
let server: TestPostgres;
let sandbox: RunningSandbox;
const running = new Set<CliProcess>();

beforeAll(async () => {
  dir = await tempDir('br-studio-');
  [server, sandbox] = await Promise.all([startTestPostgres(), startTestSandbox({ executionDurationMs: 1_500 })]);
}, 90_000);

afterAll(async () => {
  for (const cli of running) cli.child.kill('SIGKILL');
  await Promise.all([...running].map((c) => c.done));
  await sandbox?.close();
  await server?.stop();
  await removeDir(dir);
});

let shade = 0;

/** Photos of distinct content (the ledger keys by content: two equal files are one photo). */
async function photos(folder: string, count: number, prefix: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (let i = 0; i < count; i++) {
    shade++;
    await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: (shade * 37) % 256, g: (shade * 91) % 256, b: (shade * 53) % 256 } } })
      .jpeg().toFile(join(folder, `${prefix}-${String(i).padStart(2, '0')}.jpg`));
  }
}

/** One instance: no memory-profile relaunch, so the pid we signal is the process that holds the claims. */
function instance(name: string, inbox: string, out: string, extra: string[] = [], workflow: string[] = ['--workflow', 'color-grade', '--text', 'look=warm']): CliProcess & { saved: () => number; output: () => string } {
  const env = cliEnv(join(dir, `state-${name}`), {
    BATCHROOM_API_KEY: sandbox.apiKey, PGPASSWORD: server.password, BATCHROOM_MEMORY_PROFILE: '1', BATCHROOM_STUDIO_LEASE_MS: '2000',
  });
  const cli = startCli(['--service-url', sandbox.url, '--json', 'watch', inbox, ...workflow,
    '--out', out, '--existing', 'process', '--ledger-url', server.url, '--studio-folder', 'to-edit', ...extra], env);
  running.add(cli);
  void cli.done.then(() => running.delete(cli));
  let saved = 0;
  let text = '';
  cli.child.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  outputs.push({ name, text: () => text });
  cli.onLine((line) => {
    text += `${line}\n`;
    if ((JSON.parse(line) as { kind?: string }).kind === 'saved') saved++;
  });
  return Object.assign(cli, { saved: () => saved, output: () => text });
}

const outputs: Array<{ name: string; text: () => string }> = [];

/** Every instance's latest output, for a wait that timed out. */
function recentOutputs(): string {
  return outputs.map((o) => `--- ${o.name}\n${o.text().slice(-3000)}`).join('\n');
}

/** Instances take their time (start-up, leases, 1.5 s executions): poll calmly, and show what each said. */
const STUDIO_WAIT = { timeoutMs: 60_000, intervalMs: 100, detail: recentOutputs };

async function claimStates(folderKey: string): Promise<Record<string, number>> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await client.connect();
  try {
    // Before the first instance has joined there is no table yet: nothing claimed.
    if (!(await client.query(`SELECT to_regclass('batchroom_claims') IS NOT NULL AS present`)).rows[0].present) return {};
    const { rows } = await client.query('SELECT state, count(*)::int AS n FROM batchroom_claims WHERE folder_key = $1 GROUP BY state', [folderKey]);
    return Object.fromEntries(rows.map((r) => [r.state as string, r.n as number]));
  } finally {
    await client.end();
  }
}

describe('studio mode: several instances on one hot folder', () => {
  it('three instances process 60 photos once each: 60 executions, 60 results, the work shared', { timeout: 180_000 }, async () => {
    const inbox = join(dir, 'share', 'to-edit');
    const out = join(dir, 'share', 'edited');
    await photos(inbox, 30, 'early');
    const before = sandbox.stats().executionsCreated;
    const instances = ['a', 'b', 'c'].map((name) => instance(name, inbox, out));
    // More photos arrive while all three watch: every watcher sees every file; only one may take each.
    await new Promise((r) => setTimeout(r, 4_000));
    await photos(inbox, 30, 'late');
    await until(async () => ((await claimStates('to-edit')).saved ?? 0) === 60, '60 saved claims', { ...STUDIO_WAIT, timeoutMs: 120_000 });
    for (const cli of instances) cli.child.kill('SIGINT');
    const results = await Promise.all(instances.map((c) => c.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(sandbox.stats().executionsCreated - before).toBe(60);
    const files = (await readdir(out)).sort();
    expect(files).toHaveLength(60);
    expect(files.filter((f) => /_\d+\.jpg$/.test(f.replace('_color-grade', '')))).toEqual([]);
    expect(instances.reduce((n, c) => n + c.saved(), 0)).toBe(60);
    // Each instance claims only what its engine starts soon, so a burst is shared rather than taken by the first.
    for (const cli of instances) expect(cli.saved()).toBeGreaterThan(0);
  });

  it('kill -9 mid-batch: the survivor follows the dead one\'s executions instead of paying again', { timeout: 180_000 }, async () => {
    const inbox = join(dir, 'share2', 'to-edit');
    const out = join(dir, 'share2', 'edited');
    await photos(inbox, 10, 'shoot');
    const before = sandbox.stats().executionsCreated;
    const doomed = instance('doomed', inbox, out, ['--studio-folder', 'to-edit-2']);
    await until(() => sandbox.stats().executionsCreated - before >= 4, 'the first instance to submit 4 photos', STUDIO_WAIT);
    doomed.child.kill('SIGKILL');
    await doomed.done;
    const atKill = sandbox.stats().executionsCreated - before;
    const survivor = instance('survivor', inbox, out, ['--studio-folder', 'to-edit-2']);
    await until(async () => {
      const states = await claimStates('to-edit-2');
      return (states.saved ?? 0) + (states.unknown ?? 0) === 10;
    }, 'all 10 photos settled', { ...STUDIO_WAIT, timeoutMs: 120_000 });
    survivor.child.kill('SIGINT');
    expect((await survivor.done).code).toBe(0);
    const states = await claimStates('to-edit-2');
    const executions = sandbox.stats().executionsCreated - before;
    // Every execution the dead instance started is followed, none sent again: one execution per saved photo, and
    // an "unknown" (cut off mid-submit, never resubmitted) adds at most one more.
    expect(executions).toBeLessThanOrEqual(10);
    expect(executions).toBeGreaterThanOrEqual(atKill);
    expect(states.saved).toBeGreaterThanOrEqual(10 - (states.unknown ?? 0));
    const files = await readdir(out);
    expect(files).toHaveLength(states.saved!);
    // The dead instance's accepted executions were followed by the survivor (it never saw those photos' bytes go out).
    expect(survivor.output()).toMatch(/taken over from .*: following its execution exe_/);
  });

  it('the database going away pauses claiming ("studio ledger unreachable") and nothing is lost or paid twice', { timeout: 180_000 }, async () => {
    const inbox = join(dir, 'share3', 'to-edit');
    const out = join(dir, 'share3', 'edited');
    await photos(inbox, 4, 'first');
    const before = sandbox.stats().executionsCreated;
    const cli = instance('lonely', inbox, out, ['--studio-folder', 'to-edit-3']);
    // Down while the first four run at the service: their ids and outcomes reach the ledger once it is back.
    await until(() => sandbox.stats().executionsCreated - before === 4, 'the first 4 photos submitted', STUDIO_WAIT);
    await server.stopServer();
    await photos(inbox, 4, 'during');
    await until(() => /studio ledger unreachable/.test(cli.output()), 'the unreachable state to be reported', STUDIO_WAIT);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(sandbox.stats().executionsCreated - before).toBe(4);
    await server.startServer();
    await until(() => cli.saved() === 8, 'the photos that arrived meanwhile saved once the ledger is back', STUDIO_WAIT);
    cli.child.kill('SIGINT');
    expect((await cli.done).code).toBe(0);
    expect(sandbox.stats().executionsCreated - before).toBe(8);
    expect(await claimStates('to-edit-3')).toEqual({ saved: 8 });
    expect(await readdir(out)).toHaveLength(8);
  });

  it('an instance paused past its lease (SIGSTOP) leaves the photos taken over from it to the taker: each written once', { timeout: 180_000 }, async () => {
    const inbox = join(dir, 'share6', 'to-edit');
    const out = join(dir, 'share6', 'edited');
    await photos(inbox, 6, 'nap');
    const before = sandbox.stats().executionsCreated;
    const sleeper = instance('sleeper', inbox, out, ['--studio-folder', 'to-edit-6']);
    await until(() => sandbox.stats().executionsCreated - before >= 3, 'the sleeper to submit 3 photos', STUDIO_WAIT);
    // A laptop lid closed mid-batch: the process keeps its state, its heartbeat stops, its 2 s lease runs out.
    sleeper.child.kill('SIGSTOP');
    let heir: ReturnType<typeof instance>;
    try {
      heir = instance('heir', inbox, out, ['--studio-folder', 'to-edit-6']);
      await until(async () => {
        const states = await claimStates('to-edit-6');
        return (states.saved ?? 0) + (states.unknown ?? 0) === 6;
      }, 'the heir to settle all 6 photos', { ...STUDIO_WAIT, timeoutMs: 120_000 });
    } finally {
      sleeper.child.kill('SIGCONT');
    }
    const followed = heir.output().match(/taken over from .*: following its execution/g)?.length ?? 0;
    expect(followed).toBeGreaterThan(0);
    // Awake, with executions it paid for long completed: their results are the heir's (saved already), not its own.
    // Before: it wrote them too, and the shared folder got a second copy of each under the collision suffix.
    const leftAlone = () => sleeper.output().match(/took this photo over while this machine was paused/g)?.length ?? 0;
    await until(async () => ((await claimStates('to-edit-6')).saved ?? 0) === 6 && (leftAlone() >= followed || (await readdir(out)).length > 6),
      'the sleeper to leave the heir\'s photos alone (or write them again)', STUDIO_WAIT);
    await new Promise((r) => setTimeout(r, 1_000));
    for (const cli of [sleeper, heir]) cli.child.kill('SIGINT');
    for (const result of await Promise.all([sleeper.done, heir.done])) expect(result.code, result.stderr).toBe(0);
    expect(sandbox.stats().executionsCreated - before).toBe(6);
    expect(await claimStates('to-edit-6')).toEqual({ saved: 6 });
    expect((await readdir(out)).sort()).toHaveLength(6);
    expect(leftAlone()).toBe(followed);
  });

  it('three instances under one 10-credit budget spend 10 credits together, not 30', { timeout: 180_000 }, async () => {
    const inbox = join(dir, 'share4', 'to-edit');
    const out = join(dir, 'share4', 'edited');
    await photos(inbox, 20, 'budget');
    const before = sandbox.stats().executionsCreated;
    const instances = ['p', 'q', 'r'].map((name) => instance(name, inbox, out, ['--studio-folder', 'to-edit-4', '--budget', '10']));
    await until(async () => ((await claimStates('to-edit-4')).saved ?? 0) === 10, '10 saved claims', STUDIO_WAIT);
    // Room for more would show within a few heartbeats; none may come.
    await new Promise((r) => setTimeout(r, 3_000));
    for (const cli of instances) cli.child.kill('SIGINT');
    await Promise.all(instances.map((c) => c.done));
    expect(sandbox.stats().executionsCreated - before).toBe(10); // color-grade costs 1 credit
    expect(await claimStates('to-edit-4')).toEqual({ saved: 10 });
    expect(instances.map((c) => c.output()).join('')).toMatch(/studio budget of 10 credits reached/);
  });

  it('two instances with different workflows on one folder both process every photo (different keys)', { timeout: 180_000 }, async () => {
    const inbox = join(dir, 'share5', 'to-edit');
    await photos(inbox, 6, 'both');
    const before = sandbox.stats().executionsCreated;
    const grade = instance('grade', inbox, join(dir, 'share5', 'graded'), ['--studio-folder', 'to-edit-5']);
    const upscale = instance('upscale', inbox, join(dir, 'share5', 'upscaled'), ['--studio-folder', 'to-edit-5'], ['--workflow', 'upscale', '--size', '1K']);
    await until(() => grade.saved() === 6 && upscale.saved() === 6, 'both workflows to save all 6', STUDIO_WAIT);
    for (const cli of [grade, upscale]) cli.child.kill('SIGINT');
    await Promise.all([grade.done, upscale.done]);
    expect(sandbox.stats().executionsCreated - before).toBe(12);
    expect(await claimStates('to-edit-5')).toEqual({ saved: 12 });
  });
});
