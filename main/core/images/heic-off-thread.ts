import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// The HEIC decoder is WebAssembly run synchronously: a 12 MP iPhone photo held the event loop for 3.2 s (measured),
// during which the engine polled, uploaded and saved nothing and the page's WebSocket got no answer. The screen's
// renditions (viewable.ts) are made for every queue row, so they decode in a worker thread instead. The worker is
// started from source text and loads heic-decode by its resolved path, so it works from the sources and from the
// bundled CLI alike (heic-decode stays in node_modules: it finds its .wasm next to itself).

export interface DecodedHeic {
  width: number;
  height: number;
  /** RGBA, 8 bits per channel. */
  data: Buffer;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.decoder);
decode({ buffer: workerData.file }).then(
  (image) => parentPort.postMessage({ width: image.width, height: image.height, data: image.data }, [image.data.buffer]),
  (error) => parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
`;

let decoderPath: string | null = null;

/** Decodes a HEIC's primary image in a worker thread that ends with the decode. */
export function decodeHeicOffThread(file: Buffer): Promise<DecodedHeic> {
  decoderPath ??= createRequire(import.meta.url).resolve('heic-decode');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { decoder: decoderPath, file } });
    worker.once('message', (message: { width: number; height: number; data: Uint8ClampedArray } | { error: string }) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve({ width: message.width, height: message.height, data: Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength) });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`HEIC decoder worker exited (${code})`)));
  });
}
