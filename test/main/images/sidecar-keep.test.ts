import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultMetadataWriter, type ResultMetadataWriter } from '../../../main/core/images/result-metadata';
import { writeSidecar } from '../../../main/core/images/sidecar';

// A result named like its RAW original in the original's folder (IMG_1.jpg beside IMG_1.CR2) has the same sidecar
// name as the RAW's own Lightroom sidecar, which holds the photographer's edits: that file is never replaced.
const LIGHTROOM_XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" crs:Exposure2012="+0.35" crs:Temperature="5600"/>
</rdf:RDF></x:xmpmeta>`;

describe('an XMP sidecar beside an existing one', () => {
  let dir: string;
  let writer: ResultMetadataWriter;
  const context = {
    provenance: { workflowId: 'w', workflowName: 'W', parameters: {}, executionId: 'e1', creditsCharged: 1, sourceName: 'IMG_1.CR2', sourceSha256: null },
    submittedAt: null, completedAt: null, creatorTool: 'test',
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batchroom-sidecar-keep-'));
    writer = createResultMetadataWriter({ configDir: join(dir, 'cfg'), creatorTool: 'test' });
  });
  afterAll(async () => {
    await writer.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the original\'s own sidecar untouched and says so; replaces one Batchroom wrote', { timeout: 30_000 }, async () => {
    const result = join(dir, 'IMG_1.jpg');
    await writeFile(result, await sharp({ create: { width: 16, height: 12, channels: 3, background: '#c93' } }).jpeg().toBuffer());
    await writeFile(join(dir, 'IMG_1.xmp'), LIGHTROOM_XMP);
    const warning = await writeSidecar('xmp', writer, result, context);
    expect(warning).toMatch(/IMG_1\.xmp is already there and was not written by Batchroom .*kept as it is/);
    expect(await readFile(join(dir, 'IMG_1.xmp'), 'utf8')).toBe(LIGHTROOM_XMP);

    const ours = join(dir, 'IMG_2.jpg');
    await writeFile(ours, await sharp({ create: { width: 16, height: 12, channels: 3, background: '#39c' } }).jpeg().toBuffer());
    expect(await writeSidecar('xmp', writer, ours, context)).toBeNull();
    expect(await writeSidecar('xmp', writer, ours, { ...context, provenance: { ...context.provenance, executionId: 'e2' } })).toBeNull();
    expect(await readFile(join(dir, 'IMG_2.xmp'), 'utf8')).toContain('e2');
  });
});
