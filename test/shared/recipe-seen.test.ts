import { describe, expect, it } from 'vitest';
import { describeDrift, recipeDrift, seenOf } from '../../shared/recipes/recipe-seen';
import { makeRecipe, parseRecipe, serializeRecipe } from '../../shared/recipes/recipe';
import { WorkflowDetailSchema } from '../../shared/service/model';

// Issue 32 #1/#4: a recipe keeps what its workflow was when saved, and says what changed since.

const workflow = (over: { creditCost?: number; looks?: string[]; promptRequired?: boolean; extraImage?: boolean } = {}) => WorkflowDetailSchema.parse({
  id: 'grade', name: 'Grade', creditCost: over.creditCost ?? 2,
  inputSchema: {
    imageFields: [{ id: 'photo', label: 'Photo' }, ...(over.extraImage ? [{ id: 'mask', label: 'Mask' }] : [])],
    textFields: [{ id: 'prompt', label: 'Prompt', required: over.promptRequired ?? false }],
    switchFields: [{ id: 'look', label: 'Look', options: (over.looks ?? ['film', 'warm']).map((id) => ({ id, label: id })) }],
  },
});
const recipe = (extra: Record<string, unknown> = {}) => makeRecipe({ name: 'X', workflowId: 'grade', parameters: { switchSelections: { look: ['film'] } }, ...seenOf(workflow()), ...extra });

describe('what a recipe saw of its workflow', () => {
  it('is kept in the file and read back; absent stays absent (the same bytes as before)', () => {
    const r = recipe();
    expect(r.seenCreditCost).toBe(2);
    expect(r.seenSchema).toEqual({ texts: ['prompt'], switches: { look: ['film', 'warm'] }, images: ['photo'], required: ['photo'] });
    const back = parseRecipe(JSON.parse(serializeRecipe(r)));
    expect(back.ok && back.value).toEqual(r);
    expect(serializeRecipe(makeRecipe({ name: 'X', workflowId: 'grade' }))).not.toContain('seen');
  });

  it('says nothing when nothing changed', () => {
    expect(recipeDrift(recipe(), workflow())).toEqual({ price: null, changes: [] });
    expect(describeDrift('X', recipeDrift(recipe(), workflow()))).toBeNull();
  });

  it('says a new price, an option gone and a new required field, in words', () => {
    const drift = recipeDrift(recipe(), workflow({ creditCost: 3, looks: ['warm'], promptRequired: true, extraImage: true }));
    expect(drift.price).toEqual({ from: 2, to: 3 });
    expect(describeDrift('X', drift)).toBe("recipe 'X': price changed 2 → 3 credits per photo; option 'film' of 'look' is gone; new required field 'prompt'; new required image field 'mask'");
    // A flag beside the recipe that gives the field: not a change to stop for.
    expect(recipeDrift(recipe(), workflow({ promptRequired: true }), new Set(['prompt'])).changes).toEqual([]);
  });

  it('without saved facts: no price to compare, still the options it uses', () => {
    const bare = makeRecipe({ name: 'X', workflowId: 'grade', parameters: { switchSelections: { look: ['film'] } } });
    expect(recipeDrift(bare, workflow({ creditCost: 9, looks: ['warm'], promptRequired: true }))).toEqual({ price: null, changes: ["option 'film' of 'look' is gone"] });
  });
});
