import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../main/sandbox/inputs';
import { DEFAULT_LIMITS } from '../../../main/sandbox/options';
import { sniffImageType } from '../../../main/sandbox/sniff';
import { WORKFLOWS } from '../../../main/sandbox/workflows';
import type { WorkflowDefinition, WorkflowRunInput } from '../../../main/sandbox/workflow-types';

// Every sandbox workflow takes every image a real service would: extreme panoramas both ways, a single pixel and a
// 96 MP photo, at both output sizes — and returns results of the size the output asks for.

const SHAPES: [string, number, number][] = [
  ['6000×300 panorama', 6000, 300],
  ['300×6000 strip', 300, 6000],
  ['1 px', 1, 1],
  ['96 MP', 12_000, 8_000],
];

const photos = new Map<string, Promise<Buffer>>();
function photo(width: number, height: number): Promise<Buffer> {
  const key = `${width}x${height}`;
  if (!photos.has(key)) photos.set(key, sharp({ create: { width, height, channels: 3, background: '#6a8caf' } }).jpeg({ quality: 80 }).toBuffer());
  return photos.get(key)!;
}

async function inputFor(workflow: WorkflowDefinition, width: number, height: number, imageSize: '1K' | '2K'): Promise<WorkflowRunInput> {
  const bytes = await photo(width, height);
  const raster = await decodeImage('images.photo', { bytes, type: sniffImageType(bytes)! }, DEFAULT_LIMITS);
  const images = Object.fromEntries(workflow.inputSchema.imageFields.filter((f) => f.required).map((f) => [f.id, raster]));
  const texts = Object.fromEntries(workflow.inputSchema.textFields.map((f) => [f.id, f.presetOptions?.[0]?.id ?? f.defaultValue ?? 'Summer 2026']));
  const switches = Object.fromEntries(workflow.inputSchema.switchFields.map((f) => [f.id, f.options.slice(0, Math.max(f.minSelections, Math.min(2, f.maxSelections))).map((o) => o.id)]));
  return { images, texts, switches, output: { imageSize } };
}

describe('every workflow, every shape', () => {
  for (const workflow of WORKFLOWS) {
    it.each(SHAPES)(`${workflow.id}: %s`, { timeout: 60_000 }, async (_name, width, height) => {
      for (const imageSize of ['1K', '2K'] as const) {
        const results = await workflow.run(await inputFor(workflow, width, height, imageSize));
        expect(results.length).toBeGreaterThan(0);
        for (const result of results) {
          const meta = await sharp(result.data).metadata();
          expect(Math.max(meta.width!, meta.height!), `${workflow.id} ${imageSize}`).toBe(imageSize === '1K' ? 1024 : 2048);
        }
      }
    });
  }

  it('upscale: the photo at the requested size as a PNG, colours unchanged, no metadata and no ICC profile', async () => {
    const upscale = WORKFLOWS.find((w) => w.id === 'upscale')!;
    expect(upscale.creditCost).toBe(1);
    expect(upscale.inputSchema).toEqual({ imageFields: [expect.objectContaining({ id: 'photo', required: true })], textFields: [], switchFields: [] });
    const [result] = await upscale.run(await inputFor(upscale, 600, 400, '2K'));
    const meta = await sharp(result!.data).metadata();
    expect([meta.format, meta.width, meta.height, meta.icc, meta.exif]).toEqual(['png', 2048, 1365, undefined, undefined]);
    const { channels } = await sharp(result!.data).stats();
    // #6a8caf, unchanged.
    expect(channels.slice(0, 3).map((c) => Math.round(c.mean))).toEqual([0x6a, 0x8c, 0xaf]);
  });
});
