import cliProgress from 'cli-progress';
import type { BatchSummary, ItemView } from '../../shared/engine/model';
import { SERVICE_UNREACHABLE, type ServiceUnreachable } from '../../shared/engine/model';
import { pausedReasonText, unreachableMessage } from '../../shared/engine/outage-text';
import { inGroup } from '../../shared/engine/item-states';
import type { CreditKind } from '../../shared/service/credit-kind';
import type { TrackerListener } from './batch-tracker';
import { EtaEstimator } from './eta';
import { fit, lineWidth, wrap } from './format';
import { barLabel, barLine, labelWidth, progressLine, statusText, totalsOf } from './progress-text';
import type { Output } from './session';

export interface Reporter extends TrackerListener {
  stop(): void;
  /** How many items the reporter keeps something of (tests: it stays the number in flight, not the batch's size). */
  held?(): number;
}

/** How often a progress line is written without a terminal: under 5 s, so a CI log never goes 5 s without one. */
export const PROGRESS_EVERY_MS = 4_000;

/** Calls `tick` every `ms` until stopped; never keeps the process alive by itself. */
function heartbeat(tick: () => void, ms = PROGRESS_EVERY_MS): () => void {
  const timer = setInterval(tick, ms);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * NDJSON for scripts: one `item` line per item state change, a `progress` line per batch at most once a second (and
 * on every batch state change), and at least every PROGRESS_EVERY_MS while nothing changes. The final `summary` line
 * is written by the command.
 */
export function ndjsonReporter(out: Output): Reporter {
  const lastState = new Map<string, string>();
  const lastProgressAt = new Map<string, { at: number; state: string; reason: string | null }>();
  const latest = new Map<string, BatchSummary>();
  let unreachable: ServiceUnreachable | null = null;
  const record = (b: BatchSummary, now: number) => {
    lastProgressAt.set(b.id, { at: now, state: b.state, reason: b.pausedReason });
    // While the service is unreachable, `nextTryAt` (epoch ms) says when the engine probes it again.
    const outage = (b.pauseCode === 'service-unreachable' || b.pausedReason === SERVICE_UNREACHABLE) && unreachable ? { nextTryAt: unreachable.nextTryAt } : {};
    out.record({
      type: 'progress', batchId: b.id, state: b.state, pausedReason: b.pausedReason, pauseCode: b.pauseCode, ...outage, progress: b.progress,
      etaMs: b.etaMs, counts: b.counts, creditsSpent: b.creditsSpent, total: b.total,
    });
  };
  // Checked every second, so no batch goes longer than PROGRESS_EVERY_MS (+1 s at most) without a progress line.
  const stopBeat = heartbeat(() => {
    const now = Date.now();
    for (const b of latest.values()) {
      if (now - (lastProgressAt.get(b.id)?.at ?? 0) >= PROGRESS_EVERY_MS) record(b, now);
    }
  }, 1000);
  return {
    service(value) {
      unreachable = value;
    },
    items(items) {
      // Finished states come from the outcome outbox (every attempt, none missed); progress gives the others.
      for (const item of items) {
        if (inGroup('terminal', item.state) || lastState.get(item.id) === item.state) continue;
        lastState.set(item.id, item.state);
        out.record({
          type: 'item', batchId: item.batchId, id: item.id, name: item.displayName, state: item.state,
          reason: item.reason, executionId: item.executionId, outputs: item.outputs, creditsCharged: item.creditsCharged,
        });
      }
    },
    outcome(o) {
      // A finished item needs no entry: progress never repeats a terminal state, and a retry's first new state is
      // news. Kept, the map held every item of the batch to the end.
      lastState.delete(o.itemId);
      out.record({
        type: 'item', batchId: o.batchId, id: o.itemId, name: o.displayName, state: o.state, attempt: o.attempt,
        reason: o.reason, executionId: o.executionId, outputs: o.outputs, creditsCharged: o.creditsCharged,
      });
    },
    batches(batches) {
      const now = Date.now();
      for (const b of batches) {
        latest.set(b.id, b);
        const last = lastProgressAt.get(b.id);
        if (last && last.state === b.state && last.reason === b.pausedReason && now - last.at < 1000) continue;
        record(b, now);
      }
    },
    stop: stopBeat,
    held: () => lastState.size,
  };
}

/**
 * Without a terminal (logs, pipes) and without --json: one line per finished item, and a progress line (done, in
 * flight, ETA, credits) every few seconds whether or not anything changed — a log that goes quiet for minutes looks
 * hung. Every line is wrapped to 80 columns.
 */
export function lineReporter(out: Output, kind: CreditKind = 'real', width = 80): Reporter {
  let outage = false;
  const latest = new Map<string, BatchSummary>();
  const eta = new EtaEstimator();
  const pausedSaid = new Map<string, string>();
  const say = (text: string, indent = '    ') => {
    for (const line of wrap(text, width, indent)) out.line(line);
  };
  const stopBeat = heartbeat(() => {
    if (latest.size === 0) return;
    const totals = totalsOf([...latest.values()]);
    eta.observe(totals, Date.now());
    say(progressLine(totals, eta.etaMs(), kind), ' '.repeat(10));
  });
  return {
    service(value) {
      // One line when the service stops answering and one when it is back, not one per probe.
      if (value && !outage) say(unreachableMessage(value, Date.now()));
      if (!value && outage) say('The service answers again — resuming.');
      outage = value !== null;
    },
    batches(batches) {
      for (const b of batches) {
        latest.set(b.id, b);
        const reason = pauseToSay(b);
        if (reason && pausedSaid.get(b.id) !== reason) say(`paused    ${reason}`, ' '.repeat(10));
        pausedSaid.set(b.id, reason);
      }
      eta.observe(totalsOf([...latest.values()]), Date.now());
    },
    outcome(o) {
      // One line per finished attempt: a failure the user then retried, and the retry's result, are both facts.
      // A saved item's reason is a warning ("saved, but the XMP sidecar … was not written"): never dropped.
      const detail = o.state === 'saved' ? ` → ${o.outputs.join(', ')}${o.reason ? ` — ${o.reason}` : ''}` : o.reason ? `: ${o.reason}` : '';
      say(`${o.state.padEnd(9)} ${o.displayName}${o.attempt > 1 ? ` (attempt ${o.attempt})` : ''}${detail}`, ' '.repeat(10));
    },
    stop: stopBeat,
  };
}

const STATUS_ROOM = 40;

/** A paused batch's reason, said once above the progress: not the outage, which `service` says (with its countdown). */
function pauseToSay(b: BatchSummary): string {
  if (b.state !== 'paused' || b.pauseCode === 'service-unreachable' || b.pausedReason === SERVICE_UNREACHABLE) return '';
  return pausedReasonText(b.pausedReason, null, 0) ?? 'paused';
}

/**
 * On a terminal: one whole-batch bar (items done, ETA, credits) and a bar per item in flight, redrawn at most ten
 * times a second by cli-progress, every line fitted to the terminal's width at each redraw (a resized terminal
 * included). Finished failures and a pause's reason are logged above the bars, wrapped, so they stay visible.
 */
export function terminalReporter(total: number, kind: CreditKind = 'real', stream: NodeJS.WriteStream = process.stderr): Reporter {
  const multibar = new cliProgress.MultiBar(
    {
      clearOnComplete: false, hideCursor: true, fps: 10, stream, autopadding: true,
      format: (_options, params, payload: { name: string; status: string; room: number }) =>
        barLine(barLabel(payload.name, labelWidth(params.maxWidth)), params.progress, payload.status, params.maxWidth, payload.room),
    },
    cliProgress.Presets.shades_classic,
  );
  const width = () => lineWidth(stream);
  const log = (text: string) => multibar.log(`${fit(text, width() - 1)}\n`);
  // Room kept for the status, the same on every bar so they line up: "12/250 done · ETA 1h05m · 1,234 credits" fits.
  const overall = multibar.create(Math.max(total, 1), 0, { name: 'batch', status: 'starting…', room: STATUS_ROOM });
  const itemBars = new Map<string, cliProgress.SingleBar>();
  const latest = new Map<string, BatchSummary>();
  const eta = new EtaEstimator();
  const pausedSaid = new Map<string, string>();
  let outage = false;
  return {
    service(value) {
      // As without a terminal: one line when the service stops answering, one when it is back (the bar says paused).
      if (value && !outage) log(unreachableMessage(value, Date.now()));
      if (!value && outage) log('The service answers again — resuming.');
      outage = value !== null;
    },
    batches(batches) {
      for (const b of batches) {
        latest.set(b.id, b);
        const reason = pauseToSay(b);
        if (reason && pausedSaid.get(b.id) !== reason) log(`paused: ${reason}`);
        pausedSaid.set(b.id, reason);
      }
      const totals = totalsOf([...latest.values()]);
      eta.observe(totals, Date.now());
      overall.setTotal(Math.max(totals.total, 1));
      overall.update(Math.min(totals.progress * totals.total, totals.total), { status: statusText(totals, eta.etaMs(), kind) });
    },
    items(items: ItemView[]) {
      for (const item of items) {
        const bar = itemBars.get(item.id);
        if (inGroup('inFlight', item.state)) {
          const payload = { name: item.displayName, status: item.state, room: STATUS_ROOM };
          if (bar) bar.update(item.progress, payload);
          else if (itemBars.size < 12) itemBars.set(item.id, multibar.create(100, item.progress, payload));
          continue;
        }
        if (bar) {
          multibar.remove(bar);
          itemBars.delete(item.id);
        }
      }
    },
    outcome(o) {
      if (inGroup('unsuccessful', o.state)) log(`${o.state}: ${o.displayName}${o.reason ? ` — ${o.reason}` : ''}`);
      // Saved with a warning (metadata or sidecar not written): said above the bars too.
      else if (o.state === 'saved' && o.reason) log(`warning: ${o.displayName} — ${o.reason}`);
    },
    stop: () => multibar.stop(),
  };
}

export function pickReporter(out: Output, total: number, kind: CreditKind = 'real'): Reporter {
  if (out.json) return ndjsonReporter(out);
  if (out.quiet) return { stop: () => undefined };
  if (process.stderr.isTTY) return terminalReporter(total, kind);
  return lineReporter(out, kind, lineWidth(process.stdout));
}
