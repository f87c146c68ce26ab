import { describe, expect, it } from 'vitest';
import { BatchSpecSchema } from '../../shared/engine/model';
import { describeChainStep } from '../../shared/engine/chain-mark';
import { chainCosts, chainStepSpec, INTERMEDIATE_NAMING, type ChainContext } from '../../shared/recipes/chain-spec';
import { recipeFingerprint } from '../../shared/recipes/fingerprint';
import { hotFolderRecipeRefusal } from '../../shared/recipes/recipe-spec';
import { makeRecipe, parseRecipe, serializeRecipe, MAX_CHAIN_STEPS } from '../../shared/recipes/recipe';
import type { WorkflowDetail } from '../../shared/service/model';

// Chains in the recipe file and as batches (issue 32 #3): the file format, the fingerprint, and each step's spec.

const ACCOUNT = 'f'.repeat(32);
const oneStep = () => makeRecipe({ name: 'Grade', workflowId: 'color-grade', parameters: { texts: { look: 'warm' } } });
const chain = () => makeRecipe({
  name: 'Grade then grain', workflowId: 'color-grade', parameters: { texts: { look: 'warm' } },
  steps: [{ workflowId: 'film-effects', parameters: { switchSelections: { effects: ['grain'] } } }, { workflowId: 'caption-watermark', parameters: { texts: { caption: 'Studio' } } }],
});

const workflow = (id: string, creditCost: number): WorkflowDetail => ({
  id, name: id.toUpperCase(), description: '', creditCost, tags: [],
  inputSchema: { imageFields: [{ id: 'photo', label: 'Photo', description: '', required: true }], textFields: [], switchFields: [] },
} as unknown as WorkflowDetail);

describe('chain recipes', () => {
  it('a one-step recipe is written as before (version 1, no steps); a chain as version 2 with its steps', () => {
    const plain = JSON.parse(serializeRecipe(oneStep()));
    expect(plain.version).toBe(1);
    expect(plain).not.toHaveProperty('steps');
    expect(plain).not.toHaveProperty('keepSteps');
    const written = JSON.parse(serializeRecipe(chain()));
    expect(written.version).toBe(2);
    expect(written.steps.map((s: { workflowId: string }) => s.workflowId)).toEqual(['film-effects', 'caption-watermark']);
    const back = parseRecipe(written);
    expect(back.ok && back.value).toEqual(chain());
  });

  it('refuses steps in a version 1 file, and more than the maximum of steps', () => {
    const v1 = parseRecipe({ ...JSON.parse(serializeRecipe(chain())), version: 1 });
    expect(!v1.ok && v1.message).toContain('must be 2 for a recipe with steps');
    const long = { ...JSON.parse(serializeRecipe(chain())), steps: Array.from({ length: MAX_CHAIN_STEPS }, () => ({ workflowId: 'film-effects' })) };
    const refused = parseRecipe(long);
    expect(!refused.ok && refused.message).toContain(`at most ${MAX_CHAIN_STEPS - 1} steps`);
  });

  it('the fingerprint covers every step (what is paid) and is unchanged for one-step recipes', () => {
    const plain = oneStep();
    expect(recipeFingerprint(plain, ACCOUNT)).toBe(recipeFingerprint({ workflowId: plain.workflowId, parameters: plain.parameters, fixedImages: {} }, ACCOUNT));
    const a = chain();
    const b = { ...a, steps: [a.steps[0]!, { ...a.steps[1]!, parameters: { texts: { caption: 'Other' } } }] };
    expect(recipeFingerprint(a, ACCOUNT)).not.toBe(recipeFingerprint(plain, ACCOUNT));
    expect(recipeFingerprint(a, ACCOUNT)).not.toBe(recipeFingerprint(b, ACCOUNT));
  });

  it('turns each step into a batch: intermediate steps save full-quality results named as the photo; the last makes the deliverables', () => {
    const recipe = chain();
    const first = BatchSpecSchema.parse({
      workflowId: 'color-grade', parameters: recipe.parameters, inputs: { paths: ['/photos'], recursive: true },
      output: { outputFolder: '/out', format: 'webp', namingTemplate: '{name}_final{ext}', sidecar: 'xmp' }, budget: 50, tryFirst: 2, job: 'Wedding',
    });
    const context: ChainContext = { chainId: 'c1', workflows: [workflow('color-grade', 1), workflow('film-effects', 2), workflow('caption-watermark', 2)], stepFolder: (n) => `/state/step-${n}` };
    const one = BatchSpecSchema.parse(chainStepSpec(first, recipe, context, 1, null, 50));
    expect(one).toMatchObject({ workflowId: 'color-grade', tryFirst: 2, job: 'Wedding', inputs: { paths: ['/photos'], recursive: true }, chain: { id: 'c1', step: 1, steps: 3 } });
    expect(one.output).toMatchObject({ outputFolder: '/state/step-1', namingTemplate: INTERMEDIATE_NAMING, format: 'source', quality: 100, metadata: 'keep', sidecar: 'none' });
    const inputs = { files: [{ path: '/state/step-1/a/p0.jpg', relDir: 'a' }] };
    const two = BatchSpecSchema.parse(chainStepSpec(first, recipe, context, 2, inputs, 49));
    expect(two).toMatchObject({ workflowId: 'film-effects', parameters: { switchSelections: { effects: ['grain'] } }, budget: 49, tryFirst: null });
    expect(two.inputs).toMatchObject({ paths: ['/state/step-1/a/p0.jpg'], imageField: 'photo', relDirs: { '/state/step-1/a/p0.jpg': 'a' } });
    const three = BatchSpecSchema.parse(chainStepSpec(first, recipe, context, 3, inputs, null));
    expect(three.output).toEqual(first.output);
    expect(describeChainStep(three.chain!)).toBe('Step 3 of 3: CAPTION-WATERMARK');
    expect(chainCosts(context.workflows)).toEqual({ perStep: [1, 2, 2], perPhoto: 5 });
  });

  it('a hot folder refuses a chain with the reason (it runs one step); a one-step recipe still runs there', () => {
    expect(hotFolderRecipeRefusal(chain())).toContain('is a chain of 3 steps');
    expect(hotFolderRecipeRefusal(oneStep())).toBeNull();
  });
});
