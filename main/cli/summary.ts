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

/** The lists the human summary shows (each its first LISTED items and how many more). */
const LISTS = [
  { states: ['failed', 'cancelled'], title: 'Failed:' },
  { states: ['unknown'], title: 'Unknown (may have been charged; resubmit explicitly from the app if needed):' },
  { states: ['charged-no-result'], title: 'Charged, no result (the service lost these; `batchroom report --out report.csv` lists them for the provider):' },
  { states: ['skipped'], title: 'Skipped:' },
] as const;
const LISTED = 50;

type Listed = Pick<ItemView, 'displayName' | 'reason' | 'state'>;

/**
 * The end-of-run tally, fed a page of items at a time: counts, the saved files (only when `outputs` — the NDJSON
 * summary names them all) and the first 50 of each list the human summary shows. A 100k batch's ItemViews were all
 * held at once for it (~1 KB each); now one page is.
 */
export class SummaryTally {
  private readonly counts = new Map<string, number>();
  private paidElsewhere = 0;
  private readonly outputs: string[] = [];
  private readonly lists = LISTS.map(() => ({ shown: [] as Listed[], count: 0 }));

  constructor(private readonly keepOutputs = true) {}

  add(items: readonly ItemView[]): void {
    for (const item of items) {
      this.counts.set(item.state, (this.counts.get(item.state) ?? 0) + 1);
      if (item.state === 'saved') {
        if (this.keepOutputs) this.outputs.push(...item.outputs);
        if (item.paidElsewhere === true) this.paidElsewhere += 1;
      }
      const list = LISTS.findIndex((l) => (l.states as readonly string[]).includes(item.state));
      if (list < 0) continue;
      const kept = this.lists[list]!;
      kept.count += 1;
      if (kept.shown.length < LISTED) kept.shown.push({ displayName: item.displayName, reason: item.reason, state: item.state });
    }
  }

  /** Items whose details the tally keeps (the listed ones) plus the output paths it keeps. */
  held(): number {
    return this.lists.reduce((sum, l) => sum + l.shown.length, 0) + this.outputs.length;
  }

  summary(batches: readonly BatchSummary[]): SummaryLine {
    const count = (...states: string[]) => states.reduce((sum, s) => sum + (this.counts.get(s) ?? 0), 0);
    return {
      type: 'summary',
      saved: count('saved'),
      // A cancelled item did not produce its result: for a script that is a failure.
      failed: count('failed', 'cancelled'),
      skipped: count('skipped'),
      unknown: count('unknown'),
      chargedNoResult: count('charged-no-result'),
      creditsSpent: Math.round(batches.reduce((sum, b) => sum + b.creditsSpent, 0) * 1e6) / 1e6,
      outputs: this.outputs,
      paidElsewhere: this.paidElsewhere,
    };
  }

  /** The human summary: counts, then each failure and unknown with its reason, then where the results are. */
  text(batches: readonly BatchSummary[], summary: SummaryLine, kind: CreditKind = 'real', width = 80): string {
    const lines = [
      table(['SAVED', 'FAILED', 'SKIPPED', 'UNKNOWN', kind === 'test' ? 'FREE TEST CREDITS USED' : 'CREDITS SPENT'], [[
        String(summary.saved), String(summary.failed), String(summary.skipped), String(summary.unknown), credits(summary.creditsSpent, kind),
      ]]),
    ];
    if (summary.paidElsewhere > 0) {
      lines.push('', ...wrap(`${summary.paidElsewhere} of the saved ${summary.paidElsewhere === 1 ? 'photo was' : 'photos were'} already running in another batch: paid once, 0 credits here.`, width, ''));
    }
    LISTS.forEach(({ title }, i) => {
      const { shown, count } = this.lists[i]!;
      if (count === 0) return;
      lines.push('', ...wrap(title, width, '  '));
      for (const item of shown) lines.push(...wrap(`  ${item.displayName}: ${item.reason ?? item.state}`, width, '      '));
      if (count > shown.length) lines.push(`  … and ${count - shown.length} more`);
    });
    for (const b of batches) {
      if (b.state === 'paused') lines.push('', ...wrap(pausedLine(b), width, ''));
    }
    const folders = [...new Set(batches.map((b) => b.outputFolder))];
    if (summary.saved > 0) lines.push('', ...wrap(`Results in ${folders.join(', ')}`, width, '  '));
    return lines.join('\n');
  }
}

export function summarize({ batches, items }: BatchOutcome): SummaryLine {
  const tally = new SummaryTally();
  tally.add(items);
  return tally.summary(batches);
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

/** The human summary of items held in a list (SummaryTally.text, for callers that have them all anyway). */
export function summaryText({ batches, items }: BatchOutcome, summary: SummaryLine, kind: CreditKind = 'real', width = 80): string {
  const tally = new SummaryTally(false);
  tally.add(items);
  return tally.text(batches, summary, kind, width);
}

/** What the summary says of a paused batch: its message, then how to go on, by its code. */
function pausedLine(b: BatchSummary): string {
  const reason = (b.pausedReason ?? 'paused').replace(/\.$/, '');
  if (b.pauseCode === 'output-unwritable') {
    return `Batch ${b.id} is paused: ${reason}. Its paid results are kept and are saved without a new charge by \`batchroom resume\`.`;
  }
  return `Batch ${b.id} is paused: ${reason}. Continue with \`batchroom resume\`.`;
}
