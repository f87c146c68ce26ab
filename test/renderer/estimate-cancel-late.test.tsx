import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchEstimate } from '../../shared/engine/model';
import { batch, estimate, standardBridge, summaryOf, WORKFLOWS } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

// Review of issue 34: main's cancel only stops planning inside its reading loop. A Cancel that lands after it (the
// balance, buildEstimate) cancels nothing, and the estimate answers with a price. "Nothing is priced from a cancelled
// estimate" — but "Review batch…" awaited that same answer and opens the summary anyway.
describe('Cancel of an estimate that was already past its cancel points', () => {
  it('does not open the summary the user cancelled', async () => {
    let answer!: (e: BatchEstimate) => void;
    const fake = standardBridge({
      'batches:estimate': () => new Promise<BatchEstimate>((resolve) => { answer = resolve; }),
      'batches:cancelEstimate': () => ({ cancelled: 1 }), // aborted, but planning no longer looks at the signal
      'batches:create': () => batch({ workflowName: summaryOf(WORKFLOWS[0]!).name }),
    });
    const user = userEvent.setup();
    renderApp(fake);
    const name = summaryOf(WORKFLOWS[0]!).name;
    await user.click(await screen.findByRole('button', { name: new RegExp(name) }));
    await screen.findByRole('form', { name: `${name} settings` });
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/photos/season{Enter}');
    await waitFor(() => expect(fake.callsTo('batches:estimate')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: /Review batch…|Checking/ }));
    act(() => fake.emit('batches:estimateProgress', { estimateId: 1, phase: 'reading', done: 100_000, total: 100_000, elapsedMs: 9_000 }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await act(async () => { answer(estimate()); });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog', { name: 'Batch summary' })).toBeNull();
  });
});
