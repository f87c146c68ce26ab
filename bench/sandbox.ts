// Sandbox benchmark: the sandbox must never be the bottleneck of a batch. Measures, against a sandbox in its own
// process (as the engine sees it), status-poll throughput and latency when idle, then again while 8 heavy image
// edits (2K film effects on a 2000×1500 photo) run continuously: a p99 that stays low proves the edits run on
// sharp's thread pool and do not block the event loop. Last line: one JSON object of metrics.
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { setPriority } from 'node:os';
import sharp from 'sharp';
import { fetchSandboxStats, spawnSandbox } from '../test/helpers/sandbox';
import { percentile } from './_bench-util';

const STATUS_CONCURRENCY = 8;
const PHASE_MS = 4000;
const EDITS_IN_FLIGHT = 8;

const sandboxProcessArgs = ['--rate-limit', '1000000', '--max-concurrent', '64', '--duration-ms', '300', '--credits', '1000000'];
const sandbox = await spawnSandbox(sandboxProcessArgs);
// On a shared machine, BENCH_PRIORITY=-10 (root only) raises the bench and sandbox above neighbours' builds so the
// figures describe the sandbox rather than the contention; the load average is reported either way.
const priority = Number(process.env.BENCH_PRIORITY ?? NaN);
if (Number.isInteger(priority)) {
  try {
    // Every thread (Linux priorities are per thread): main threads, libuv pools, V8 helpers.
    for (const pid of [process.pid, sandbox.process.pid!]) {
      for (const tid of readdirSync(`/proc/${pid}/task`)) setPriority(Number(tid), priority);
    }
  } catch (error) {
    process.stderr.write(`could not set priority ${priority}: ${(error as Error).message}\n`);
  }
}
const headers = { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' };

async function post(path: string, body: unknown): Promise<{ executionId: string }> {
  const response = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (response.status !== 202) throw new Error(`execute answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { executionId: string };
}

// Status polls go through node:http with a keep-alive agent: far less client CPU per request than fetch, so on a
// small machine the load generator does not starve the sandbox it is measuring.
const agent = new Agent({ keepAlive: true, maxSockets: 32 });
function status(id: string): Promise<{ status: string }> {
  return new Promise((resolve, reject) => {
    get(`${sandbox.url}/executions/${id}`, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) return reject(new Error(`status answered ${response.statusCode}`));
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { status: string });
      });
      response.on('error', reject);
    }).on('error', reject);
  });
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const adminBase = sandbox.url.replace(/\/api\/v1$/, '');
const resetEventLoop = () => fetch(`${adminBase}/sandbox/stats/reset-event-loop`, { method: 'POST' });
const eventLoopDelay = async () => (await fetchSandboxStats(sandbox.url)).eventLoopDelay as { p50Ms: number; p99Ms: number; maxMs: number };

/**
 * CPU seconds the sandbox process has used (Linux /proc, clock ticks of 10 ms). Requests per sandbox-CPU-second is a
 * capacity figure that stays meaningful when other processes compete for the cores during the run.
 */
function sandboxCpuSeconds(): number {
  try {
    const fields = readFileSync(`/proc/${sandbox.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Hammers GET /executions/{id} with STATUS_CONCURRENCY workers for PHASE_MS. */
async function statusPhase(id: string) {
  const latencies: number[] = [];
  const cpuBefore = sandboxCpuSeconds();
  const end = performance.now() + PHASE_MS;
  const started = performance.now();
  await Promise.all(Array.from({ length: STATUS_CONCURRENCY }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      await status(id);
      latencies.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  const cpu = sandboxCpuSeconds() - cpuBefore;
  return { rps: latencies.length / seconds, perCpuSecond: latencies.length / cpu, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) };
}

try {
  const small = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } }).png().toBuffer();
  const { executionId: probeId } = await post('/workflows/color-grade/execute', {
    images: { photo: `data:image/png;base64,${small.toString('base64')}` }, texts: { look: 'warm' },
  });

  // Warm-up (JIT, keep-alive connections), then the idle phase.
  for (let i = 0; i < 200; i++) await status(probeId);
  await resetEventLoop();
  const idle = await statusPhase(probeId);
  const idleLoop = await eventLoopDelay();
  process.stdout.write(`idle:   ${round(idle.rps, 0)} status req/s (${round(idle.perCpuSecond, 0)} per sandbox CPU-second), p50 ${round(idle.p50, 2)} ms, p99 ${round(idle.p99, 2)} ms\n`);

  // Loaded phase: keep EDITS_IN_FLIGHT heavy executions running the whole time.
  const photo = await sharp({ create: { width: 2000, height: 1500, channels: 3, noise: { type: 'gaussian', mean: 120, sigma: 40 }, background: '#000' } })
    .jpeg({ quality: 85 }).toBuffer();
  const heavy = {
    images: { photo: `data:image/jpeg;base64,${photo.toString('base64')}` },
    switchSelections: { effects: ['grain', 'vignette', 'highContrast', 'soften', 'sharpen'] },
    globalOverrides: { imageSize: '2K' },
  };
  let editsCompleted = 0;
  let stop = false;
  const editsStarted = performance.now();
  const editWorkers = Array.from({ length: EDITS_IN_FLIGHT }, async () => {
    while (!stop) {
      const { executionId } = await post('/workflows/film-effects/execute', heavy);
      for (;;) {
        const { status: state } = await status(executionId);
        if (state === 'completed') break;
        if (state === 'failed') throw new Error('a benchmark edit failed');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      editsCompleted += 1;
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 1500)); // let all 8 edits get going
  await resetEventLoop();
  const loaded = await statusPhase(probeId);
  const loadedLoop = await eventLoopDelay();
  stop = true;
  await Promise.all(editWorkers);
  // Over the whole edit period (warm-up, measured phase, and draining the last ones).
  const editsPerSecond = editsCompleted / ((performance.now() - editsStarted) / 1000);
  process.stdout.write(`loaded: ${round(loaded.rps, 0)} status req/s, p50 ${round(loaded.p50, 2)} ms, p99 ${round(loaded.p99, 2)} ms ` +
    `(max ${round(loaded.max, 1)} ms) while ${EDITS_IN_FLIGHT} 2K edits ran, ${round(editsPerSecond, 2)} edits/s\n`);
  process.stdout.write(`sandbox event-loop delay p99: idle ${idleLoop.p99Ms} ms, during edits ${loadedLoop.p99Ms} ms (max ${loadedLoop.maxMs} ms)\n`);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  process.stdout.write(`goal: ≥ 500 status req/s under load → ${loaded.rps >= 500 ? 'met' : 'NOT met'} (machine load average ${load}; ` +
    `capacity idle ${round(idle.perCpuSecond, 0)} req per sandbox CPU-second)\n`);

  process.stdout.write(`${JSON.stringify({
    statusRpsIdle: round(idle.rps, 0),
    statusPerSandboxCpuSecondIdle: round(idle.perCpuSecond, 0),
    statusP50MsIdle: round(idle.p50, 2),
    statusP99MsIdle: round(idle.p99, 2),
    statusRpsLoaded: round(loaded.rps, 0),
    statusP50MsLoaded: round(loaded.p50, 2),
    statusP99MsLoaded: round(loaded.p99, 2),
    statusMaxMsLoaded: round(loaded.max, 1),
    p99LoadedOverIdle: round(loaded.p99 / idle.p99, 2),
    eventLoopDelayP99MsIdle: idleLoop.p99Ms,
    eventLoopDelayP99MsLoaded: loadedLoop.p99Ms,
    eventLoopDelayMaxMsLoaded: loadedLoop.maxMs,
    editsInFlight: EDITS_IN_FLIGHT,
    editsPerSecond: round(editsPerSecond, 2),
    editsCompleted,
    priority: Number.isInteger(priority) ? priority : 0,
    loadAverage: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
  })}\n`);
} finally {
  agent.destroy();
  await sandbox.kill();
}
