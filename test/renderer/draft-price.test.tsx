import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchEstimate, BatchSpecInput } from '../../shared/engine/model';
import { estimate, standardBridge, summaryOf, WORKFLOWS } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

// The form's price line comes from main's estimate of exactly this draft — "estimating…" until it answers — not
// from counting file extensions (which priced a folder at nothing and a photo already done at full price).

async function colorGradeWith(answer: (spec: BatchSpecInput) => Promise<BatchEstimate> | BatchEstimate) {
  const fake = standardBridge({ 'batches:estimate': (spec) => answer(spec as BatchSpecInput) });
  const user = userEvent.setup();
  renderApp(fake);
  const name = summaryOf(WORKFLOWS[0]!).name;
  await user.click(await screen.findByRole('button', { name: new RegExp(name) }));
  await screen.findByRole('form', { name: `${name} settings` });
  return { fake, user, cost: () => screen.getByRole('status', { name: 'Cost of this batch' }) };
}

describe('the draft price', () => {
  it('says "estimating…" until the estimate answers, then its count and cost', async () => {
    let answer!: (e: BatchEstimate) => void;
    const { user, cost } = await colorGradeWith(() => new Promise<BatchEstimate>((resolve) => { answer = resolve; }));
    expect(cost()).toHaveTextContent('Nothing is spent until you confirm the summary.');
    // A folder and a photo already done: file names would say "1 photo and 1 folder · 1 credit".
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/photos/shoot{Enter}');
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/photos/IMG_1.JPG{Enter}');
    expect(cost()).toHaveTextContent('estimating…');
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    await new Promise((r) => setTimeout(r, 50));
    expect(cost()).toHaveTextContent('estimating…');
    answer(estimate({ itemCount: 12, costPerItem: 0.5, totalCost: 5.5 }));
    await waitFor(() => expect(cost()).toHaveTextContent('12 photos · 5.5 credits'));
  });

  it('asks once per draft: "Review batch…" opens the summary from the same answer', async () => {
    const { fake, user, cost } = await colorGradeWith(() => estimate({ itemCount: 3, costPerItem: 1, totalCost: 3 }));
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/photos/shoot{Enter}');
    await waitFor(() => expect(cost()).toHaveTextContent('3 photos · 3 credits'));
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batch summary' });
    expect(within(dialog).getByText('3 credits')).toBeInTheDocument();
    expect(fake.callsTo('batches:estimate')).toHaveLength(1);
  });
});
