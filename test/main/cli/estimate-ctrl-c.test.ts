import { describe, expect, it, vi } from 'vitest';
import { estimateWithProgress } from '../../../main/cli/estimate-progress';
import type { CliSession } from '../../../main/cli/session';

// Review of issue 34: Ctrl-C during `run`'s estimate must stop the command (nothing sent). The core's cancel only
// takes effect inside planning's reading loop; a Ctrl-C that lands after it (balance, buildEstimate, the last file's
// read) finds no estimate to cancel, and the estimate resolves as if nothing happened — the SIGINT handler installed
// here has also replaced node's default exit, so the command goes on to create (and with --yes pay for) the batch.
describe('run: Ctrl-C during the estimate', () => {
  it('a Ctrl-C that arrives when planning is past its cancel points still stops the command', async () => {
    let finish!: () => void;
    const calls: string[] = [];
    const session = {
      out: { quiet: true },
      core: { onEvent: () => () => undefined },
      call: async (channel: string) => {
        calls.push(channel);
        if (channel === 'batches:cancelEstimate') return { cancelled: 0 }; // no estimate was still cancellable
        await new Promise<void>((resolve) => { finish = resolve; });
        return { itemCount: 1 };
      },
    } as unknown as CliSession;
    const pending = estimateWithProgress(session, { workflowId: 'w', inputs: { paths: ['/x'] } } as never);
    await new Promise((r) => setImmediate(r));
    process.emit('SIGINT', 'SIGINT');
    await new Promise((r) => setImmediate(r));
    finish();
    expect(calls).toContain('batches:cancelEstimate');
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('run: a second Ctrl-C during the estimate', () => {
  it('leaves at once with 130 when the core does not answer', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    let now = 1_000_000;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now);
    let end!: () => void;
    try {
      const session = {
        out: { quiet: true },
        core: { onEvent: () => () => undefined },
        call: async (channel: string) => (channel === 'batches:cancelEstimate' ? { cancelled: 1 } : new Promise((resolve) => { end = () => resolve({}); })),
      } as unknown as CliSession;
      const pending = estimateWithProgress(session, { workflowId: 'w', inputs: { paths: ['/x'] } } as never);
      pending.catch(() => undefined);
      await new Promise((r) => setImmediate(r));
      process.emit('SIGINT', 'SIGINT');
      process.emit('SIGINT', 'SIGINT'); // the settings store's re-raised signal, within 1 s: not the user's second
      expect(exit).not.toHaveBeenCalled();
      now += 2_000;
      process.emit('SIGINT', 'SIGINT');
      expect(exit).toHaveBeenCalledWith(130);
      end(); // its handlers are taken off as it ends
      await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    } finally {
      clock.mockRestore();
      exit.mockRestore();
    }
  });
});
