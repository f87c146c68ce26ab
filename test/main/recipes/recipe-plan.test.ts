import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFolderRecipes } from '../../../main/core/recipes/recipe-plan';
import { createRecipeStore } from '../../../main/core/recipes/recipe-store';
import { makeRecipe } from '../../../shared/recipes/recipe';
import { WorkflowDetailSchema } from '../../../shared/service/model';

// A hot folder checks its recipe before every batch; an image seen unchanged is not hashed again, and a changed one
// (same size, other bytes) is still caught.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'br-recipe-plan-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const workflow = WorkflowDetailSchema.parse({ id: 'wf', name: 'W', creditCost: 1, inputSchema: { imageFields: [{ id: 'photo', label: 'P' }], textFields: [], switchFields: [] } });

describe('a folder\'s recipe check', () => {
  it('passes a watermark as saved, again and again, and refuses it once its bytes change', async () => {
    const mark = join(dir, 'mark.png');
    await writeFile(mark, 'mark as saved');
    const sha256 = createHash('sha256').update('mark as saved').digest('hex');
    createRecipeStore(dir).save(makeRecipe({ name: 'M', workflowId: 'wf', deliverables: [{ watermark: { path: mark, sha256 } }] }));
    const check = createFolderRecipes({ stateDir: dir, getWorkflow: async () => workflow, account: () => 'a' });
    const folder = { workflowId: 'wf', parameters: {} };
    expect(await check('M', folder)).toMatchObject({ ok: true });
    expect(await check('M', folder)).toMatchObject({ ok: true });
    await writeFile(mark, 'mark CHANGED!'); // the same size
    const changed = await check('M', folder);
    expect(changed.ok).toBe(false);
    expect(!changed.ok && changed.reason).toContain('deliverables.0.watermark');
    expect(!changed.ok && changed.reason).toContain('is not the image the recipe was saved with');
  });
});
