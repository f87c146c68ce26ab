// Metadata and colour work must not slow batches (issue 16): the same 200-photo run (photos with EXIF, IPTC-style
// captions, GPS and a colour profile) with metadata policy `keep` against `strip`, alternating strip/keep twice so
// a noisy machine colours both alike. Every result is finished (format, ICC, DPI) either way; `keep` adds ExifTool's
// copy and provenance. Goal: keep/strip wall ratio ≤ 1.10. Last line: one JSON object of metrics.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { MetadataPolicy } from '../shared/engine/model';
import { createEngine } from '../main/core/engine';
import { openJournal } from '../main/core/journal';
import { createServiceClient } from '../main/core/service';
import { spawnSandbox } from '../test/helpers/sandbox';

const PHOTOS = Number(process.env.BENCH_METADATA_PHOTOS ?? '200');
const log = (line: string) => process.stdout.write(`${line}\n`);

async function photos(folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const paths: string[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const path = join(folder, `IMG_${String(i).padStart(4, '0')}.jpg`);
    await sharp({ create: { width: 1600, height: 1067, channels: 3, background: { r: (i * 37) % 256, g: (i * 71) % 256, b: (i * 13) % 256 } } })
      .withIccProfile('p3')
      .withExif({ IFD0: { Make: 'Canon', Model: 'Canon EOS R5', Copyright: '© Studio', ImageDescription: `Frame ${i}`, Artist: 'A. Photographer' } })
      .jpeg({ quality: 85 })
      .toFile(path);
    paths.push(path);
  }
  return paths;
}

async function main(): Promise<void> {
  const sandbox = await spawnSandbox(['--duration-ms', '300', '--credits', '10000000', '--rate-limit', '100000', '--max-concurrent', '64']);
  const root = await mkdtemp(join(tmpdir(), 'batchroom-bench-metadata-'));
  const journal = openJournal(join(root, 'state'));
  const engine = createEngine({ journal, client: createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), concurrency: 8, requestsPerSecond: 200 });
  await engine.start();
  try {
    const inputs = await photos(join(root, 'in'));
    const walls: Record<MetadataPolicy, number[]> = { keep: [], 'strip-gps': [], strip: [] };
    let round = 0;
    for (const policy of ['strip', 'keep', 'strip', 'keep'] as const) {
      const started = performance.now();
      const { id } = await engine.createBatch({
        workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, inputs: { paths: inputs }, rerun: true,
        output: { outputFolder: join(root, `out-${round++}-${policy}`), metadata: policy },
      });
      for (;;) {
        const batch = engine.getBatch(id);
        if (batch.state === 'completed' && !engine.busy()) {
          if (batch.counts.saved !== PHOTOS) throw new Error(`not every photo saved: ${JSON.stringify(batch.counts)}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      const wall = performance.now() - started;
      walls[policy].push(wall);
      log(`${policy.padEnd(5)} ${PHOTOS} photos: ${(wall / 1000).toFixed(2)} s`);
    }
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const ratio = sum(walls.keep) / sum(walls.strip);
    log(`keep / strip wall ratio: ${ratio.toFixed(3)} (goal ≤ 1.10)`);
    log(JSON.stringify({ photos: PHOTOS, keepSeconds: walls.keep.map((w) => Number((w / 1000).toFixed(2))), stripSeconds: walls.strip.map((w) => Number((w / 1000).toFixed(2))), keepVsStrip: Number(ratio.toFixed(3)) }));
  } finally {
    await engine.stop({ graceful: false });
    journal.close();
    await sandbox.kill();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
