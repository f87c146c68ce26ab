// Several deliverables from one paid result (issue 32): what the 2nd and 3rd file cost next to the one a batch made
// before. A 24 MP result (6000×4000 JPEG, textured so the encoders do real work) is finished as 1 deliverable
// (original size, JPEG q92) and as 3 (that JPEG; a 2048 px long-edge WebP with a PNG watermark; a 1080×1080 cover
// PNG), each deliverable one finishResult call as the saver makes it, rounds alternating 1/3 so a noisy machine
// colours both alike. Prints deliverables per second and the 3-deliverable / 1-deliverable time ratio, measured in
// this run. Last line: one JSON object of metrics.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { DeliverableSize, Watermark } from '../shared/engine/model';
import { finishResult, type FinishOptions } from '../main/core/images/finish-result';

const ROUNDS = Number(process.env.BENCH_DELIVERABLES_ROUNDS ?? '4');
const log = (line: string) => process.stdout.write(`${line}\n`);

async function fixtures(root: string): Promise<{ result: string; watermark: Watermark }> {
  // Noise scaled up: soft texture at every scale, closer to a photo's encoding cost than a flat fill.
  const texture = await sharp({ create: { width: 750, height: 500, channels: 3, background: { r: 120, g: 110, b: 100 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } } }).png().toBuffer();
  const result = join(root, 'result-24mp.jpg');
  await sharp(texture).resize(6000, 4000, { kernel: 'cubic' }).jpeg({ quality: 92 }).toFile(result);
  const logo = await sharp({ create: { width: 600, height: 200, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 0.8 } } }).png().toBuffer();
  const path = join(root, 'logo.png');
  await writeFile(path, logo);
  return { result, watermark: { path, sha256: createHash('sha256').update(logo).digest('hex'), position: 'bottom-right', scale: 0.2, opacity: 0.6 } };
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'batchroom-bench-deliverables-'));
  try {
    const { result, watermark } = await fixtures(root);
    const original: DeliverableSize = { fit: 'original' };
    const one: FinishOptions[] = [{ format: 'jpeg', quality: 92, colour: 'srgb', size: original }];
    const three: FinishOptions[] = [
      ...one,
      { format: 'webp', quality: 85, colour: 'srgb', size: { fit: 'long-edge', longEdge: 2048 }, watermark },
      { format: 'png', quality: 92, colour: 'srgb', size: { fit: 'cover', width: 1080, height: 1080 } },
    ];
    const look = { icc: null, density: 300 };
    let file = 0;
    const parts: number[][] = three.map(() => []);
    const finishAll = async (set: FinishOptions[]) => {
      const started = performance.now();
      for (const [i, options] of set.entries()) {
        const at = performance.now();
        await finishResult(result, join(root, `out-${file++}.${options.format}`), options, look);
        if (set === three) parts[i]!.push(performance.now() - at);
      }
      return performance.now() - started;
    };
    await finishAll(three); // warm-up: libvips' caches and the watermark's first decode are not what a batch pays per photo
    for (const p of parts) p.length = 0;
    const walls = { one: [] as number[], three: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      walls.one.push(await finishAll(one));
      walls.three.push(await finishAll(three));
      log(`round ${round + 1}: 1 deliverable ${walls.one.at(-1)!.toFixed(0)} ms · 3 deliverables ${walls.three.at(-1)!.toFixed(0)} ms`);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const oneMs = median(walls.one);
    const threeMs = median(walls.three);
    const perSecond = (count: number, ms: number) => (count * 1000) / ms;
    log(`24 MP result, 1 deliverable (original JPEG q92): ${oneMs.toFixed(0)} ms · ${perSecond(1, oneMs).toFixed(2)} deliverables/s`);
    log(`24 MP result, 3 deliverables (+ 2048 WebP watermarked, + 1080² cover PNG): ${threeMs.toFixed(0)} ms · ${perSecond(3, threeMs).toFixed(2)} deliverables/s`);
    const names = ['original JPEG', '2048 WebP + watermark', '1080² cover PNG'];
    log(`within the 3: ${parts.map((p, i) => `${names[i]} ${median(p).toFixed(0)} ms`).join(' · ')}`);
    log(`3-deliverable / 1-deliverable time: ${(threeMs / oneMs).toFixed(2)}`);
    log(JSON.stringify({
      oneDeliverableMs: Math.round(oneMs), threeDeliverablesMs: Math.round(threeMs),
      deliverablesPerSecondOne: Number(perSecond(1, oneMs).toFixed(2)), deliverablesPerSecondThree: Number(perSecond(3, threeMs).toFixed(2)),
      threeVsOne: Number((threeMs / oneMs).toFixed(2)), partsMs: parts.map((p) => Math.round(median(p))),
    }));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
