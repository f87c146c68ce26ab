import { statesOf } from '../../../shared/engine/item-states';
import type { Journal } from '../journal/journal';
import { JournalClosedError } from '../journal/closed';
import type { LostVerdict } from '../journal/evidence-store';
import type { ItemRecord } from '../journal/types';
import type { Logger } from '../log';
import { BACKOFF, backoffDelay, startingAt } from '../service/retry';
import type { ServiceClient } from '../service/types';
import {
  BALANCE_KEPT_MOVING, evidenceReason, judgeLost, LOST_AWAITING_EVIDENCE, parseEvidenceState, type EvidenceState,
} from './balance-evidence';
import { GateClosed, type RequestGate } from './limiter';
import { nowMs } from './clock';
import { traceStart } from '../start-trace';

// Drives balance evidence (balance-evidence.ts has the reasoning): anchors it on every balance read taken at a quiet
// moment, notes each submission whose answer was lost, and once nothing of ours can move the balance reads it twice
// and applies the verdict. After a restart that lost submissions, new submissions wait (at most `maxHoldMs`) for
// the executions still running to settle, so the check happens at once rather than at the end of the batch.

export interface BalanceCheckOptions {
  /** Between the two reads that must agree (default 3 s). */
  settleMs?: number;
  /** How long a restart holds new submissions for the check (default 60 s). */
  maxHoldMs?: number;
}

export interface BalanceCheckDeps {
  journal: Journal;
  client: ServiceClient;
  gate: RequestGate;
  logger: Logger;
  /** Submissions started so far: a read bracketed by the same count saw none begin. */
  submits: () => number;
  /** Items whose state the verdict changed, for events, batch completion and scheduling. */
  onSettled: (itemIds: readonly string[], resent: readonly string[]) => void;
  /** Schedules a scheduling pass (a retry of the check is due). */
  kick: () => void;
}

const MAX_ATTEMPTS = 3;
const RESENT_KEPT = 10_000;

export interface BalanceTicket { submits: number; quiet: boolean }

export class BalanceCheck {
  private state: EvidenceState | null = null;
  private holdUntil = 0;
  private checking = false;
  private attempts = 0;
  private nextTryAt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly settleMs: number;
  private readonly maxHoldMs: number;

  constructor(private readonly deps: BalanceCheckDeps, private readonly enabled: boolean, options: BalanceCheckOptions = {}) {
    this.settleMs = options.settleMs ?? 3_000;
    this.maxHoldMs = options.maxHoldMs ?? 60_000;
  }

  private get current(): EvidenceState {
    this.state ??= parseEvidenceState(this.deps.journal.balanceEvidence());
    return this.state;
  }

  private save(state: EvidenceState): void {
    this.state = state;
    this.deps.journal.saveBalanceEvidence(JSON.stringify(state));
  }

  /** Nothing of ours can move the balance: no submission unanswered, no execution whose refund may be unseen. */
  quiet(): boolean {
    return this.deps.journal.itemsInStates(null, statesOf('moneyMoving'), 1).length === 0;
  }

  private knownCharges(state: EvidenceState): number {
    return this.deps.journal.executionCharges() + state.chargedWithoutExecution;
  }

  ticket(): BalanceTicket {
    return { submits: this.deps.submits(), quiet: this.quiet() };
  }

  /** A balance read that began at `ticket`: anchors the evidence when nothing could have moved it meanwhile. */
  observe(balance: number, ticket: BalanceTicket): void {
    if (!this.enabled || this.checking || !ticket.quiet) return;
    const state = this.current;
    if (state.lost.length > 0 || !this.quiet() || this.deps.submits() !== ticket.submits) return;
    this.save({ ...state, anchor: { balance, charged: this.knownCharges(state), at: new Date().toISOString() } });
  }

  /** Submissions whose answer was lost. `hold`: after a restart, hold new submissions until they are judged. */
  lost(itemIds: readonly string[], options: { hold?: boolean } = {}): void {
    if (!this.enabled || itemIds.length === 0 || this.current.anchor === null) return;
    const state = this.current;
    const lost = [...new Set([...state.lost, ...itemIds])];
    this.save({ ...state, lost });
    for (const id of itemIds) this.deps.journal.updateItem(id, { reason: LOST_AWAITING_EVIDENCE });
    this.attempts = 0;
    if (options.hold) { this.holdUntil = nowMs() + this.maxHoldMs; traceStart('evidence-hold'); }
  }

  /** New submissions wait: a restart's lost ones are about to be judged, or the reads are under way. */
  holding(): boolean {
    return this.enabled && (this.checking || (this.current.lost.length > 0 && nowMs() < this.holdUntil));
  }

  /** A check will still come in this session (the engine is not done until it has). */
  pending(): boolean {
    return this.enabled && this.current.lost.length > 0 && this.attempts < MAX_ATTEMPTS;
  }

  due(): boolean {
    return this.pending() && !this.checking && nowMs() >= this.nextTryAt && this.quiet();
  }

  stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** After the `attempts`-th failed check: twice the settle time, then four times. */
  private rereadDelay(): number {
    return backoffDelay(startingAt(BACKOFF.balanceReread, this.settleMs * 2), this.attempts - 1);
  }

  private retryIn(ms: number): void {
    this.nextTryAt = nowMs() + ms;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => { this.retryTimer = null; this.deps.kick(); }, ms);
    this.retryTimer.unref?.();
  }

  private async read(): Promise<number> {
    await this.deps.gate.acquire();
    const balance = (await this.deps.client.getBalance({ timeoutMs: 10_000 })).apiCredits;
    this.deps.gate.succeeded();
    return balance;
  }

  /** Reads the balance twice and applies the verdict. Call when due(). */
  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const submits = this.deps.submits();
      const first = await this.read();
      await new Promise((resolve) => setTimeout(resolve, this.settleMs));
      const second = await this.read();
      // Something of ours started meanwhile: not the balance's fault, try again at the next quiet moment.
      if (!this.quiet() || this.deps.submits() !== submits) return;
      if (Math.abs(first - second) > 1e-9) {
        this.attempts++;
        if (this.attempts >= MAX_ATTEMPTS) this.settle(null, second);
        else this.retryIn(this.rereadDelay());
        return;
      }
      this.settle(judgeLost, second);
    } catch (error) {
      // The engine stopped under the check: no attempt spent, the next start judges them.
      if (error instanceof GateClosed || error instanceof JournalClosedError) return;
      this.attempts++;
      this.deps.logger.warn('balance evidence: could not read the balance', { error: error instanceof Error ? error.message : String(error) });
      if (this.attempts < MAX_ATTEMPTS) this.retryIn(this.rereadDelay());
    } finally {
      traceStart('evidence-checked');
      this.checking = false;
      this.holdUntil = 0;
      this.deps.kick();
    }
  }

  /** `judge` null: the balance kept moving, nothing can be proved. */
  private settle(judge: typeof judgeLost | null, balance: number): void {
    const { journal } = this.deps;
    const state = this.current;
    const items = state.lost.map((id) => journal.getItem(id)).filter((i): i is ItemRecord => i !== null && i.state === 'unknown');
    const costs = items.map((i) => journal.getBatch(i.batchId)?.creditCost ?? 0);
    const verdict: { uncharged: LostVerdict[]; charged: LostVerdict[]; undecided: LostVerdict[] } = { uncharged: [], charged: [], undecided: [] };
    let chargedWithoutExecution = state.chargedWithoutExecution;
    const judgement = judge && state.anchor && items.length > 0
      ? judge({ anchor: state.anchor, balance, charged: this.knownCharges(state), costs })
      : null;
    const resentBefore = new Set(state.resent);
    for (const item of items) {
      const itemId = item.id;
      if (judgement === null) verdict.undecided.push({ itemId, reason: BALANCE_KEPT_MOVING });
      else if (judgement.kind === 'none-charged' && !resentBefore.has(itemId)) verdict.uncharged.push({ itemId, reason: null });
      else if (judgement.kind === 'all-charged') verdict.charged.push({ itemId, reason: evidenceReason(judgement, items.length) });
      else verdict.undecided.push({ itemId, reason: evidenceReason(judgement, items.length) });
    }
    if (judgement?.kind === 'all-charged') chargedWithoutExecution += judgement.credits;
    const resent = [...state.resent, ...verdict.uncharged.map((v) => v.itemId)].slice(-RESENT_KEPT);
    // Quiet and agreed twice: this read anchors what comes next (the charged verdict's credits now count as known).
    const anchor = judge ? { balance, charged: journal.executionCharges() + chargedWithoutExecution, at: new Date().toISOString() } : null;
    const next: EvidenceState = { anchor, lost: [], resent, chargedWithoutExecution };
    journal.settleLost(verdict, JSON.stringify(next));
    this.state = next;
    this.deps.logger.info('balance evidence: lost submissions judged', {
      lost: items.length, verdict: judgement?.kind ?? 'balance kept moving', resent: verdict.uncharged.length, charged: verdict.charged.length,
    });
    this.deps.onSettled(items.map((i) => i.id), verdict.uncharged.map((v) => v.itemId));
  }
}
