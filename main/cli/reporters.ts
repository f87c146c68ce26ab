import cliProgress from 'cli-progress';
import { basename } from 'node:path';
import type { BatchSummary, ItemView } from '../../shared/engine/model';
import { SERVICE_UNREACHABLE, type ServiceUnreachable } from '../../shared/engine/model';
import { pausedReasonText, unreachableMessage } from '../../shared/engine/outage-text';
import { inGroup, statesOf } from '../../shared/engine/item-states';
import type { TrackerListener } from './batch-tracker';
import { credits, duration } from './format';
import type { Output } from './session';

export interface Reporter extends TrackerListener {
  stop(): void;
}


/**
 * NDJSON for scripts: one `item` line per item state change, a `progress` line per batch at most once a second (and
 * on every batch state change). The final `summary` line is written by the command.
 */
export function ndjsonReporter(out: Output): Reporter {
  const lastState = new Map<string, string>();
  const lastProgressAt = new Map<string, { at: number; state: string; reason: string | null }>();
  let unreachable: ServiceUnreachable | null = null;
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
      lastState.set(o.itemId, o.state);
      out.record({
        type: 'item', batchId: o.batchId, id: o.itemId, name: o.displayName, state: o.state, attempt: o.attempt,
        reason: o.reason, executionId: o.executionId, outputs: o.outputs, creditsCharged: o.creditsCharged,
      });
    },
    batches(batches) {
      const now = Date.now();
      for (const b of batches) {
        const last = lastProgressAt.get(b.id);
        if (last && last.state === b.state && last.reason === b.pausedReason && now - last.at < 1000) continue;
        lastProgressAt.set(b.id, { at: now, state: b.state, reason: b.pausedReason });
        // While the service is unreachable, `nextTryAt` (epoch ms) says when the engine probes it again.
        const outage = (b.pauseCode === 'service-unreachable' || b.pausedReason === SERVICE_UNREACHABLE) && unreachable ? { nextTryAt: unreachable.nextTryAt } : {};
        out.record({
          type: 'progress', batchId: b.id, state: b.state, pausedReason: b.pausedReason, pauseCode: b.pauseCode, ...outage, progress: b.progress,
          etaMs: b.etaMs, counts: b.counts, creditsSpent: b.creditsSpent, total: b.total,
        });
      }
    },
    stop: () => undefined,
  };
}

/** Without a terminal (logs, pipes) and without --json: one line per finished item. */
export function lineReporter(out: Output): Reporter {
  let outage = false;
  return {
    service(value) {
      // One line when the service stops answering and one when it is back, not one per probe.
      if (value && !outage) out.line(unreachableMessage(value, Date.now()));
      if (!value && outage) out.line('The service answers again — resuming.');
      outage = value !== null;
    },
    outcome(o) {
      // One line per finished attempt: a failure the user then retried, and the retry's result, are both facts.
      // A saved item's reason is a warning ("saved, but the XMP sidecar … was not written"): never dropped.
      const detail = o.state === 'saved' ? `→ ${o.outputs.join(', ')}${o.reason ? ` — ${o.reason}` : ''}` : o.reason ? `: ${o.reason}` : '';
      out.line(`${o.state.padEnd(9)} ${o.displayName}${o.attempt > 1 ? ` (attempt ${o.attempt})` : ''} ${detail}`.trimEnd());
    },
    stop: () => undefined,
  };
}

/**
 * On a terminal: one whole-batch bar (items done, ETA, credits) and a bar per item in flight, redrawn at most ten
 * times a second by cli-progress. Finished failures are logged above the bars so they stay visible.
 */
export function terminalReporter(total: number): Reporter {
  const multibar = new cliProgress.MultiBar(
    { clearOnComplete: false, hideCursor: true, fps: 10, stream: process.stderr, format: '{label} {bar} {percentage}% | {status}', autopadding: true },
    cliProgress.Presets.shades_classic,
  );
  const overall = multibar.create(Math.max(total, 1), 0, { label: 'batch'.padEnd(24), status: 'starting…' });
  const itemBars = new Map<string, cliProgress.SingleBar>();
  const totals = new Map<string, BatchSummary>();
  let unreachable: ServiceUnreachable | null = null;
  const label = (name: string) => {
    const short = basename(name);
    return (short.length > 24 ? `${short.slice(0, 23)}…` : short).padEnd(24);
  };
  return {
    service(value) {
      unreachable = value;
    },
    batches(batches) {
      for (const b of batches) totals.set(b.id, b);
      const all = [...totals.values()];
      const count = all.reduce((s, b) => s + b.total, 0);
      const progress = all.reduce((s, b) => s + b.progress * b.total, 0);
      const finished = all.reduce((s, b) => s + statesOf('terminal').reduce((n, st) => n + (b.counts[st] ?? 0), 0), 0);
      const spent = all.reduce((s, b) => s + b.creditsSpent, 0);
      const eta = Math.max(0, ...all.map((b) => b.etaMs ?? 0));
      const paused = all.find((b) => b.state === 'paused');
      overall.setTotal(Math.max(count, 1));
      overall.update(Math.min(progress, count), {
        status: `${finished}/${count} done | ETA ${duration(eta || null)} | ${credits(spent)}${paused ? ` | paused: ${pausedReasonText(paused.pausedReason, unreachable, Date.now()) ?? ''}` : ''}`,
      });
    },
    items(items: ItemView[]) {
      for (const item of items) {
        const bar = itemBars.get(item.id);
        if (inGroup('inFlight', item.state)) {
          const payload = { label: label(item.displayName), status: item.state };
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
      if (inGroup('unsuccessful', o.state)) multibar.log(`${o.state}: ${o.displayName}${o.reason ? ` — ${o.reason}` : ''}\n`);
      // Saved with a warning (metadata or sidecar not written): said above the bars too.
      else if (o.state === 'saved' && o.reason) multibar.log(`warning: ${o.displayName} — ${o.reason}\n`);
    },
    stop: () => multibar.stop(),
  };
}

export function pickReporter(out: Output, total: number): Reporter {
  if (out.json) return ndjsonReporter(out);
  if (out.quiet) return { stop: () => undefined };
  if (process.stderr.isTTY) return terminalReporter(total);
  return lineReporter(out);
}
