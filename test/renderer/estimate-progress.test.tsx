import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchEstimate } from '../../shared/engine/model';
import { FakeFailure } from './helpers/fake-bridge';
import { batch, standardBridge, summaryOf, WORKFLOWS } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

afterEach(cleanup);

// Issue 34, item 1: an estimate of a large shoot shows a progress bar (main's batches:estimateProgress, sent after
// 1 s) and a Cancel button that stops it (batches:cancelEstimate): nothing is priced from a cancelled estimate.

describe('a long estimate', () => {
  it('shows how many photos are read, and Cancel stops it and leaves the form unpriced', async () => {
    let refuse!: (error: Error) => void;
    const fake = standardBridge({
      'batches:estimate': () => new Promise<BatchEstimate>((_, reject) => { refuse = reject; }),
      'batches:cancelEstimate': () => {
        refuse(new FakeFailure('cancelled', 'the estimate was cancelled'));
        return { cancelled: 1 };
      },
      'batches:create': () => batch({ workflowName: summaryOf(WORKFLOWS[0]!).name }),
    });
    const user = userEvent.setup();
    renderApp(fake);
    const name = summaryOf(WORKFLOWS[0]!).name;
    await user.click(await screen.findByRole('button', { name: new RegExp(name) }));
    await screen.findByRole('form', { name: `${name} settings` });
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/photos/season{Enter}');
    await waitFor(() => expect(fake.callsTo('batches:estimate')).toHaveLength(1));
    expect(screen.queryByRole('group', { name: 'Progress of the estimate' })).toBeNull();

    act(() => fake.emit('batches:estimateProgress', { estimateId: 1, phase: 'reading', done: 12_345, total: 100_000, elapsedMs: 1_200 }));
    const bar = await screen.findByRole('progressbar', { name: 'Progress of the estimate' });
    expect(bar).toHaveAttribute('value', '12345');
    expect(bar).toHaveAttribute('max', '100000');
    expect(screen.getByText('Reading photos: 12,345 of 100,000')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(fake.callsTo('batches:cancelEstimate')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    const cost = screen.getByRole('status', { name: 'Cost of this batch' });
    expect(cost).toHaveTextContent('Nothing is spent until you confirm the summary.');
    // A word that arrives after the cancel does not bring the bar back.
    act(() => fake.emit('batches:estimateProgress', { estimateId: 1, phase: 'reading', done: 12_400, total: 100_000, elapsedMs: 1_400 }));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
