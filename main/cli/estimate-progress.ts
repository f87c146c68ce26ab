import type { BatchEstimate, BatchSpecInput } from '../../shared/engine/model';
import type { EstimateProgress } from '../../shared/ipc/channels/batches';
import { AppError } from '../../shared/errors';
import { EXIT } from './exit-codes';
import { estimateProgressText } from './progress-text';
import type { CliSession } from './session';

// `run`'s estimate with a progress line and Ctrl-C. Reading 100,000 photos takes a while: after 1 s (the core's
// first progress event, estimate-runs.ts) a line on stderr says how far it is — redrawn in place on a terminal, one
// line a second with --progress otherwise; stdout (and so --json) never sees it. Ctrl-C during the estimate cancels
// it (`batches:cancelEstimate`): nothing was sent, nothing is paid, and the command ends with 130.

const CANCELLED_TEXT = 'Estimate cancelled: nothing was sent, nothing was spent.';

export interface EstimateProgressOptions {
  /** --progress: say it even when stderr is no terminal. */
  progress?: boolean;
  stream?: NodeJS.WriteStream;
}

export async function estimateWithProgress(session: CliSession, spec: BatchSpecInput, options: EstimateProgressOptions = {}): Promise<BatchEstimate> {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  const show = !session.out.quiet && (tty || options.progress === true);
  let drawn = false;
  let lastLineAt = 0;
  const stopListening = session.core.onEvent((channel, payload) => {
    if (channel !== 'batches:estimateProgress' || !show) return;
    const text = estimateProgressText(payload as EstimateProgress);
    if (tty) {
      const width = Math.max(20, (stream.columns ?? 80) - 1);
      stream.write(`\r${text.slice(0, width).padEnd(width)}`);
      drawn = true;
    } else if (Date.now() - lastLineAt >= 1_000) {
      lastLineAt = Date.now();
      stream.write(`${text}\n`);
    }
  });
  let interrupted = false;
  let firstAt = 0;
  const onSignal = () => {
    // This handler replaces node's own exit on Ctrl-C: a second one (after the 1 s the settings store's re-raised
    // signal may take, as interruptSignal) leaves at once, whatever the core is doing.
    if (interrupted) {
      if (Date.now() - firstAt > 1_000) process.exit(EXIT.interrupted);
      return;
    }
    interrupted = true;
    firstAt = Date.now();
    void session.call('batches:cancelEstimate', {}).catch(() => undefined);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const estimate = await session.call('batches:estimate', spec);
    // The core may answer though Ctrl-C came (it landed past planning's last cancel point): the answer is dropped,
    // or `run --yes` would go on to pay for what the user stopped.
    if (interrupted) throw new AppError('cancelled', CANCELLED_TEXT);
    return estimate;
  } catch (error) {
    // Cancelled by Ctrl-C: said plainly and left as an interruption (exit 130), not as a failure.
    if (interrupted && error instanceof AppError && error.code === 'cancelled') throw new AppError('cancelled', CANCELLED_TEXT);
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopListening();
    if (drawn) stream.write(`\r${' '.repeat(Math.max(20, (stream.columns ?? 80) - 1))}\r`);
  }
}
