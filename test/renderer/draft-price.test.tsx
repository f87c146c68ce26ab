import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchEstimate, BatchSpecInput } from '../../shared/engine/model';
import { batch, estimate, standardBridge, summaryOf, WORKFLOWS } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

// The form's price line comes from main's estimate of exactly this draft — "estimating…" until it answers — not
// from counting file extensions (which priced a folder at nothing and a photo already done at full price).

async function colorGradeWith(answer: (spec: BatchSpecInput) => Promise<BatchEstimate> | BatchEstimate) {
  const fake = standardBridge({ 'batches:estimate': (spec) => answer(spec as BatchSpecInput), 'batches:create': () => batch({ workflowName: summaryOf(WORKFLOWS[0]!).name }) });
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

  it('after Start, the same photos are estimated again: the second summary says they are already running, 0 credits', async () => {
    let started = false;
    const { fake, user, cost } = await colorGradeWith(() => (started
      ? estimate({ itemCount: 3, costPerItem: 1, totalCost: 0, following: [{ path: '/photos/shoot/a.jpg', batchId: 'b1', paid: false }, { path: '/photos/shoot/b.jpg', batchId: 'b1', paid: false }, { path: '/photos/shoot/c.jpg', batchId: 'b1', paid: false }] })
      : estimate({ itemCount: 3, costPerItem: 1, totalCost: 3 })));
    const add = async () => user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/photos/shoot{Enter}');
    await add();
    await waitFor(() => expect(cost()).toHaveTextContent('3 photos · 3 credits'));
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const first = await screen.findByRole('dialog', { name: 'Batch summary' });
    await user.click(within(first).getByRole('button', { name: /^Start 3 photos/ }));
    started = true;
    await waitFor(() => expect(fake.callsTo('batches:create')).toHaveLength(1));
    await screen.findByText(/^Started “/);
    // Back to the form with the same photos, within the 10 s an answer is otherwise reused: asked again.
    await user.click(within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('button', { name: 'Workflows' }));
    await user.click(await screen.findByRole('button', { name: new RegExp(summaryOf(WORKFLOWS[0]!).name) }));
    await add();
    await user.click(await screen.findByRole('button', { name: 'Review batch…' }));
    const second = await screen.findByRole('dialog', { name: 'Batch summary' });
    await waitFor(() => expect(second).toHaveTextContent(/3 already running in another batch: paid once, 0 credits/));
    expect(fake.callsTo('batches:estimate').length).toBeGreaterThanOrEqual(2);
  });
});
