import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../../shared/engine/model';
import type { WorkflowDetail } from '../../../shared/service/model';
import { planBatch } from '../../../main/core/engine/planner';
import type { FileFacts } from '../../../main/core/images/file-facts';

const workflow: WorkflowDetail = {
  id: 'color-grade', name: 'Color Grade', description: '', tags: [], creditCost: 1,
  inputSchema: { imageFields: [{ id: 'photo', label: 'Photo', required: true }], textFields: [], switchFields: [] },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const enoent = () => Object.assign(new Error('gone'), { code: 'ENOENT' });

describe('planning reads several files at once and decides in the selection order', () => {
  let dir: string;
  const spec = () => BatchSpecSchema.parse({ workflowId: 'color-grade', inputs: { paths: [dir] }, output: { outputFolder: join(dir, 'out') } });

  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'batchroom-plan-')); });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function photos(names: string[]): Promise<void> {
    for (const name of names) await writeFile(join(dir, name), name);
  }

  /** Hashes that finish in reverse order (the first file last); `hashes` maps a name to its hash or to an error. */
  function facts(hashes: Record<string, string | Error>, started: string[] = []): FileFacts {
    const names = Object.keys(hashes);
    return {
      contentHash: async (path) => {
        const name = path.slice(dir.length + 1);
        started.push(name);
        await sleep(10 * (names.length - names.indexOf(name)));
        const hash = hashes[name]!;
        if (hash instanceof Error) throw hash;
        return hash;
      },
      longEdge: async () => 0,
      raw: async () => null,
      prefetch: () => undefined,
      flush: () => undefined,
      close: () => undefined,
    };
  }

  it('keeps the first of two identical photos however the reads finish, and skips an unreadable one in between', async () => {
    await photos(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    const plan = await planBatch(spec(), workflow, facts({ 'a.jpg': 'h1', 'b.jpg': enoent(), 'c.jpg': 'h1', 'd.jpg': 'h3' }));
    expect(plan.duplicates).toEqual([{ path: join(dir, 'c.jpg'), duplicateOf: join(dir, 'a.jpg') }]);
    expect(plan.skipped).toEqual([{ path: join(dir, 'b.jpg'), reason: 'cannot be read (ENOENT)' }]);
    expect(plan.items.filter((i) => i.state === 'pending').map((i) => i.displayName)).toEqual(['a.jpg', 'd.jpg']);
    expect(plan.workCount).toBe(2);
  });

  it('stops reading the rest of the shoot when planning fails part-way', async () => {
    // 8 files are read at once (planner.ts): of 32, those started before the first answer fails are at most 16.
    const names = Array.from({ length: 32 }, (_, i) => `p${String(i).padStart(2, '0')}.jpg`);
    await photos(names);
    const started: string[] = [];
    const done = { lookup: async () => { throw new Error('ledger unreadable'); }, record: async () => undefined };
    await expect(planBatch(spec(), workflow, facts(Object.fromEntries(names.map((n) => [n, n])), started), done)).rejects.toThrow('ledger unreadable');
    await sleep(500);
    expect(started.length).toBeLessThanOrEqual(16);
  });
});
