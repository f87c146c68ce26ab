import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// The HEIC decoder is WebAssembly run synchronously: on the main thread a 12 MP iPhone photo held the event loop for
// 3.2 s (measured), during which the engine uploaded, polled and saved nothing and the page's WebSocket got no
// answer. The screen's renditions (viewable.ts, one per queue row) therefore decode in a worker thread, kept while
// HEICs keep coming (the WASM is compiled once, not per photo) and ended after a quiet spell. Uploads still decode on
// the main thread (encode.ts): in the worker one decode took ≈ 30 % longer (2.6–2.9 s against 1.9–2.2 s), and the
// app's try-first did not get faster with it on this shared machine. The worker is started from source text and loads
// heic-decode by its resolved path, so it works from the sources and from the bundled CLI alike (heic-decode stays in
// node_modules, next to its .wasm).

export interface DecodedHeic {
  width: number;
  height: number;
  /** RGBA, 8 bits per channel. */
  data: Buffer;
}

/** A worker with nothing to decode for this long is ended. */
const IDLE_MS = 20_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.decoder);
parentPort.on('message', ({ id, file }) => {
  decode({ buffer: file }).then(
    (image) => parentPort.postMessage({ id, width: image.width, height: image.height, data: image.data }, [image.data.buffer]),
    (error) => parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
`;

type Reply = { id: number; width: number; height: number; data: Uint8ClampedArray } | { id: number; error: string };
interface Job { id: number; file: Buffer; startedAt: number; resolve: (image: DecodedHeic) => void; reject: (error: Error) => void }

let decoderPath: string | null = null;

/** A decode that takes longer than this (a file that hangs the decoder) ends its worker and is refused. */
const DECODE_TIMEOUT_MS = 60_000;

/**
 * One decoder thread, started on demand, one job at a time, ended after a quiet spell. Events of a worker that is no
 * longer the current one (ended for idleness, a timeout or a crash) are ignored: its late `exit` must not reject the
 * job the next worker is decoding.
 */
function createLane(): (file: Buffer) => Promise<DecodedHeic> {
  let worker: Worker | null = null;
  let nextId = 0;
  let running: Job | null = null;
  const waiting: Job[] = [];
  let idleTimer: NodeJS.Timeout | null = null;
  let jobTimer: NodeJS.Timeout | null = null;

  /** Ends the running job (and with `retire`, its worker), then goes on with the next one. */
  const settle = (outcome: { error: Error } | { image: DecodedHeic }, retire: Worker | null) => {
    const job = running;
    if (jobTimer) { clearTimeout(jobTimer); jobTimer = null; }
    if (retire && worker === retire) {
      worker = null;
      void retire.terminate();
    }
    if (!job) return pump();
    if ('error' in outcome) job.reject(outcome.error);
    else job.resolve(outcome.image);
    // Screen work takes at most half of one core: the next decode waits as long as this one took, so on two cores
    // a queue of HEIC rows leaves the batch (which decodes the same photos for upload) 1.5 of them.
    const rest = setTimeout(() => {
      running = null;
      pump();
    }, retire ? 0 : performance.now() - job.startedAt);
    if (waiting.length === 0) rest.unref();
  };

  const start = (): Worker => {
    decoderPath ??= createRequire(import.meta.url).resolve('heic-decode');
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { decoder: decoderPath } });
    started.on('message', (reply: Reply) => {
      if (worker !== started || !running || running.id !== reply.id) return;
      if ('error' in reply) settle({ error: new Error(reply.error) }, null);
      else settle({ image: { width: reply.width, height: reply.height, data: Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength) } }, null);
    });
    const fail = (error: Error) => {
      if (worker === started) settle({ error }, started);
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`HEIC decoder worker exited (${code})`)));
    return started;
  };

  function pump(): void {
    if (running) return;
    const next = waiting.shift();
    if (idleTimer) clearTimeout(idleTimer);
    if (!next) {
      worker?.unref(); // never keeps a process alive while idle
      idleTimer = setTimeout(() => {
        if (running || !worker) return;
        const idle = worker;
        worker = null;
        void idle.terminate();
      }, IDLE_MS);
      idleTimer.unref();
      return;
    }
    const current = (worker ??= start());
    current.ref(); // held while it decodes: a CLI run waits for it
    running = next;
    next.startedAt = performance.now();
    jobTimer = setTimeout(() => settle({ error: new Error(`HEIC decoder took over ${DECODE_TIMEOUT_MS / 1000} s: given up`) }, current), DECODE_TIMEOUT_MS);
    jobTimer.unref();
    current.postMessage({ id: next.id, file: next.file });
  }

  return (file) => new Promise<DecodedHeic>((resolve, reject) => {
    waiting.push({ id: nextId++, file, startedAt: 0, resolve, reject });
    pump();
  });
}

/** Decodes a HEIC's primary image in the decoder thread, one photo at a time in order of arrival. */
export const decodeHeicOffThread: (file: Buffer) => Promise<DecodedHeic> = createLane();
