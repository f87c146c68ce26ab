import { describe, expect, it } from 'vitest';
import { provenanceArgs, type Provenance } from '../../../main/core/images/result-metadata';
import { BatchSpecSchema } from '../../../shared/engine/model';

const provenance: Provenance = {
  workflowId: 'color-grade', workflowName: 'Color Grade', parameters: {}, executionId: 'exe_1', creditsCharged: 1, sourceName: 'a.jpg', sourceSha256: null,
};

describe('a recipe in the provenance', () => {
  it('writes the recipe\'s name and fingerprint as Batchroom XMP tags, escaped, and nothing for a batch without one', () => {
    const fingerprint = 'f'.repeat(64);
    const args = provenanceArgs({ ...provenance, recipe: { name: 'Client A & B', fingerprint } }, 'Batchroom 1');
    expect(args).toContain('-XMP-batchroom:RecipeName=Client A &#38; B');
    expect(args).toContain(`-XMP-batchroom:RecipeFingerprint=${fingerprint}`);
    expect(provenanceArgs(provenance, 'Batchroom 1').some((a) => a.includes('Recipe'))).toBe(false);
  });

  it('a batch spec may name its recipe; one written before recipes still parses', () => {
    const spec = { workflowId: 'w', inputs: { paths: ['/a'] }, output: {} };
    expect(BatchSpecSchema.parse(spec).recipe).toBeUndefined();
    expect(BatchSpecSchema.parse({ ...spec, recipe: { name: 'R', fingerprint: 'a'.repeat(64) } }).recipe).toEqual({ name: 'R', fingerprint: 'a'.repeat(64) });
    expect(BatchSpecSchema.safeParse({ ...spec, recipe: { name: 'R', fingerprint: 'not a hash' } }).success).toBe(false);
  });
});
