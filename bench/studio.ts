// Studio mode (issue 19): 1, 2 and 3 `batchroom watch` processes (each its own state dir, as separate machines) on one
// folder, one PostgreSQL ledger, one sandbox key limited to C executions at once. Each round drops N new photos into
// the watched folder and times them until every claim is saved; the ratio is wall / ideal, where the ideal is the
// service-bound time: N executions of D ms, at most min(C, instances × engine concurrency) at once. Then the claim
// overhead alone: the four ledger round trips a photo costs (claim, submitting, accepted, outcome) from three
// ledgers at once, p50/p95 per photo (goal p95 ≤ 20 ms). Last line: one JSON object of metrics.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { openStudioLedger } from '../main/core/studio/studio-ledger';
import { startTestPostgres, type TestPostgres } from '../test/helpers/pg-server';
import { spawnSandbox } from '../test/helpers/sandbox';
import { cliEnv, startCli, type CliProcess } from '../test/main/cli/run-cli';

const PHOTOS = Number(process.env.BENCH_STUDIO_PHOTOS ?? '60');
const DURATION_MS = 1_000;
const SERVICE_CONCURRENCY = 8;
const ENGINE_CONCURRENCY = 4;
const CLAIMS = Number(process.env.BENCH_STUDIO_CLAIMS ?? '300');
const log = (line: string) => process.stdout.write(`${line}\n`);

let shade = 0;
async function drop(folder: string, count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    shade++;
    await sharp({ create: { width: 640, height: 427, channels: 3, background: { r: (shade * 37) % 256, g: (shade * 91) % 256, b: (shade * 53) % 256 } } })
      .jpeg().toFile(join(folder, `${prefix}-${String(i).padStart(3, '0')}.jpg`));
  }
}

async function savedClaims(server: TestPostgres, folderKey: string): Promise<number> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'batchroom' });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM batchroom_claims WHERE folder_key = $1 AND state = 'saved'`, [folderKey]);
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}

async function round(root: string, server: TestPostgres, sandbox: { url: string; apiKey: string }, instances: number): Promise<{ wallMs: number; idealMs: number }> {
  const folderKey = `round-${instances}`;
  const inbox = join(root, folderKey);
  await mkdir(inbox, { recursive: true });
  const clis: CliProcess[] = [];
  for (let i = 0; i < instances; i++) {
    const env = cliEnv(join(root, `state-${instances}-${i}`), { BATCHROOM_API_KEY: sandbox.apiKey, PGPASSWORD: server.password, BATCHROOM_MEMORY_PROFILE: '1' });
    const cli = startCli(['--service-url', sandbox.url, '--json', 'watch', inbox, '--workflow', 'color-grade', '--text', 'look=warm',
      '--out', join(root, `${folderKey}-out`), '--ledger-url', server.url, '--studio-folder', folderKey], env);
    await new Promise<void>((resolve, reject) => {
      cli.onLine((line) => { if ((JSON.parse(line) as { type?: string }).type === 'watching') resolve(); });
      void cli.done.then((r) => reject(new Error(`watch exited: ${r.stderr}`)));
    });
    clis.push(cli);
  }
  const start = performance.now();
  await drop(inbox, PHOTOS, `r${instances}`);
  while ((await savedClaims(server, folderKey)) < PHOTOS) await new Promise((r) => setTimeout(r, 50));
  const wallMs = performance.now() - start;
  for (const cli of clis) cli.child.kill('SIGINT');
  await Promise.all(clis.map((c) => c.done));
  const parallel = Math.min(SERVICE_CONCURRENCY, instances * ENGINE_CONCURRENCY);
  return { wallMs, idealMs: Math.ceil(PHOTOS / parallel) * DURATION_MS };
}

async function claimOverhead(server: TestPostgres): Promise<{ p50: number; p95: number }> {
  const ledgers = await Promise.all(['x', 'y', 'z'].map((id) => openStudioLedger({ url: server.url, instanceId: `bench-${id}`, version: 'bench', env: { PGPASSWORD: server.password } })));
  const perPhoto: number[] = [];
  try {
    await Promise.all(ledgers.map(async (ledger, n) => {
      for (let i = 0; i < CLAIMS; i++) {
        const key = `bench-${n}-${i}`;
        const t0 = performance.now();
        const result = await ledger.claim({ key, folderKey: 'overhead', contentHash: key, workflowId: 'wf', parametersHash: 'ph', relPath: `${key}.jpg`, sourcePath: `/share/${key}.jpg`, cost: 1 });
        if (result.kind !== 'claimed') throw new Error(`claim ${key}: ${result.kind}`);
        await ledger.submitting(key);
        await ledger.accepted(key, `exe-${key}`, 1);
        await ledger.record({ key, contentHash: key, workflowId: 'wf', parametersHash: 'ph', sourcePath: `/share/${key}.jpg`, outcome: 'saved', outputs: [], executionId: `exe-${key}`, itemId: null, hotFolderId: null, creditsCharged: 1 });
        perPhoto.push(performance.now() - t0);
      }
    }));
  } finally {
    await Promise.all(ledgers.map((l) => l.close()));
  }
  perPhoto.sort((a, b) => a - b);
  return { p50: perPhoto[Math.floor(perPhoto.length * 0.5)]!, p95: perPhoto[Math.floor(perPhoto.length * 0.95)]! };
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'batchroom-bench-studio-'));
  const server = await startTestPostgres();
  const sandbox = await spawnSandbox(['--duration-ms', String(DURATION_MS), '--credits', '10000000', '--rate-limit', '100000', '--max-concurrent', String(SERVICE_CONCURRENCY)]);
  const metrics: Record<string, number> = {};
  try {
    log(`${PHOTOS} photos per round, executions of ${DURATION_MS} ms, service concurrency ${SERVICE_CONCURRENCY} per key, engine concurrency ${ENGINE_CONCURRENCY} per instance`);
    for (const instances of [1, 2, 3]) {
      const { wallMs, idealMs } = await round(root, server, sandbox, instances);
      const ratio = wallMs / idealMs;
      metrics[`wallOverIdeal${instances}`] = Number(ratio.toFixed(3));
      log(`${instances} instance${instances > 1 ? 's' : ''}: ${(wallMs / 1000).toFixed(1)} s for ${PHOTOS} photos, ideal ${(idealMs / 1000).toFixed(1)} s → wall/ideal ${ratio.toFixed(2)}`);
    }
    const overhead = await claimOverhead(server);
    metrics.claimOverheadP50Ms = Number(overhead.p50.toFixed(2));
    metrics.claimOverheadP95Ms = Number(overhead.p95.toFixed(2));
    log(`claim overhead per photo (claim + submitting + accepted + outcome, 3 ledgers at once, ${CLAIMS * 3} photos): p50 ${overhead.p50.toFixed(1)} ms, p95 ${overhead.p95.toFixed(1)} ms (goal ≤ 20 ms)`);
  } finally {
    await sandbox.kill();
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
  log(JSON.stringify(metrics));
}

await main();
