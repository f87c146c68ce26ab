import type { BatchSummary, ItemView, PauseCode } from '../../shared/engine/model';
import { EXIT, type ExitCode } from './exit-codes';
import type { CreditKind } from '../../shared/service/credit-kind';
import { credits, table, wrap } from './format';

/** The last NDJSON line of `run` and `resume`; the key order is part of the CLI's contract (docs/cli.md). */
export interface SummaryLine {
  type: 'summary';
  saved: number;
  failed: number;
  skipped: number;
  unknown: number;
  /** Charged by the service, which then lost the result (`batchroom report` lists them for the provider). */
  chargedNoResult: number;
  creditsSpent: number;
  outputs: string[];
  /** Saved from a result another batch already paid for (claims): counted in `saved`, 0 credits. */
  paidElsewhere: number;
}

export interface BatchOutcome {
  batches: BatchSummary[];
  items: ItemView[];
}

export function summarize({ batches, items }: BatchOutcome): SummaryLine {
  const count = (...states: string[]) => items.filter((i) => states.includes(i.state)).length;
  return {
    type: 'summary',
    saved: count('saved'),
    // A cancelled item did not produce its result: for a script that is a failure.
    failed: count('failed', 'cancelled'),
    skipped: count('skipped'),
    unknown: count('unknown'),
    chargedNoResult: count('charged-no-result'),
    creditsSpent: Math.round(batches.reduce((sum, b) => sum + b.creditsSpent, 0) * 1e6) / 1e6,
    outputs: items.filter((i) => i.state === 'saved').flatMap((i) => i.outputs),
    paidElsewhere: items.filter((i) => i.state === 'saved' && i.paidElsewhere === true).length,
  };
}

/** The exit status a batch paused with this code asks for (docs/cli.md): the code decides, never the message's words. */
export const PAUSE_EXIT: Record<PauseCode, ExitCode> = {
  unauthorized: EXIT.auth,
  'insufficient-credits': EXIT.credits,
  budget: EXIT.credits,
  user: EXIT.failed,
  'service-unreachable': EXIT.failed,
  'output-unwritable': EXIT.failed,
};

/**
 * 0 all saved or skipped; 3 a batch stopped because the key was rejected; 4 one stopped for credits or budget (state
 * kept); 1 some failed or unknown, or a batch paused for any other reason (the output folder could not be written).
 */
export function exitCodeFor(summary: SummaryLine, batches: BatchSummary[]): ExitCode {
  const paused = batches.filter((b) => b.state === 'paused').map((b) => PAUSE_EXIT[b.pauseCode ?? 'user']);
  if (paused.includes(EXIT.auth)) return EXIT.auth;
  if (paused.includes(EXIT.credits)) return EXIT.credits;
  if (summary.failed > 0 || summary.unknown > 0 || summary.chargedNoResult > 0) return EXIT.failed;
  if (paused.length > 0) return EXIT.failed;
  return EXIT.ok;
}

/**
 * The human summary: counts, then every failure and unknown with its reason, then where the results are — each line
 * wrapped to `width` (80 without a terminal), reasons under their photo's name.
 */
export function summaryText({ batches, items }: BatchOutcome, summary: SummaryLine, kind: CreditKind = 'real', width = 80): string {
  const lines = [
    table(['SAVED', 'FAILED', 'SKIPPED', 'UNKNOWN', kind === 'test' ? 'FREE TEST CREDITS USED' : 'CREDITS SPENT'], [[
      String(summary.saved), String(summary.failed), String(summary.skipped), String(summary.unknown), credits(summary.creditsSpent, kind),
    ]]),
  ];
  const listed = (state: string[], title: string) => {
    const chosen = items.filter((i) => state.includes(i.state));
    if (!chosen.length) return;
    lines.push('', ...wrap(title, width, '  '));
    for (const item of chosen.slice(0, 50)) lines.push(...wrap(`  ${item.displayName}: ${item.reason ?? item.state}`, width, '      '));
    if (chosen.length > 50) lines.push(`  … and ${chosen.length - 50} more`);
  };
  if (summary.paidElsewhere > 0) {
    lines.push('', ...wrap(`${summary.paidElsewhere} of the saved ${summary.paidElsewhere === 1 ? 'photo was' : 'photos were'} already running in another batch: paid once, 0 credits here.`, width, ''));
  }
  listed(['failed', 'cancelled'], 'Failed:');
  listed(['unknown'], 'Unknown (may have been charged; resubmit explicitly from the app if needed):');
  listed(['charged-no-result'], 'Charged, no result (the service lost these; `batchroom report --out report.csv` lists them for the provider):');
  listed(['skipped'], 'Skipped:');
  for (const b of batches) {
    if (b.state === 'paused') lines.push('', ...wrap(pausedLine(b), width, ''));
  }
  const folders = [...new Set(batches.map((b) => b.outputFolder))];
  if (summary.saved > 0) lines.push('', ...wrap(`Results in ${folders.join(', ')}`, width, '  '));
  return lines.join('\n');
}

/** What the summary says of a paused batch: its message, then how to go on, by its code. */
function pausedLine(b: BatchSummary): string {
  const reason = (b.pausedReason ?? 'paused').replace(/\.$/, '');
  if (b.pauseCode === 'output-unwritable') {
    return `Batch ${b.id} is paused: ${reason}. Its paid results are kept and are saved without a new charge by \`batchroom resume\`.`;
  }
  return `Batch ${b.id} is paused: ${reason}. Continue with \`batchroom resume\`.`;
}
