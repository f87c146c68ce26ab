import { isAppError } from '../../../shared/errors';
import type { BatchPause } from '../../../shared/engine/model';
import { creditAmount, formatCredits, withinCredits } from '../../../shared/engine/money';
import type { Balance } from '../../../shared/service/model';
import type { BatchRecord } from '../journal/types';
import type { ServiceClient } from '../service/types';
import type { RequestGate } from './limiter';
import { nowMs } from './clock';
import type { BalanceCheck } from './balance-check';

// Money while a batch runs. The balance is tracked locally (charges and refunds applied as they happen, refreshed
// from the service every `balanceRefreshMs` and on resume) together with what submissions in flight have committed,
// so that the batch pauses with a readable reason when the next item would pass its budget or the balance — rather
// than sending items the service would refuse with 402 and failing the rest of the batch.

export interface CreditGuardDeps {
  gate: RequestGate;
  client: ServiceClient;
  balanceRefreshMs?: number;
  /** A refresh that was waited for has landed: schedule again. */
  kick: () => void;
  /** Every balance read is offered to balance evidence as a possible anchor. */
  evidence?: Pick<BalanceCheck, 'ticket' | 'observe'>;
}

export class CreditGuard {
  private balance: number | null = null;
  private balanceAt = 0;
  private refreshing = false;
  /** Credits of submissions whose answer has not arrived yet, per batch. */
  private readonly committed = new Map<string, number>();

  constructor(private readonly deps: CreditGuardDeps) {}

  /** The balance as last read, less what was charged since (plus refunds); null before the first read. */
  get knownBalance(): number | null {
    return this.balance;
  }

  setBalance(balance: number): void {
    this.balance = balance;
    this.balanceAt = nowMs();
  }

  /** Resuming (typically after a top-up) must not trust the balance that caused the pause. */
  distrustBalance(): void {
    this.balanceAt = 0;
  }

  /** Credits of every submission whose answer has not arrived yet (not in knownBalance until it is charged). */
  get committedTotal(): number {
    return [...this.committed.values()].reduce((a, b) => a + b, 0);
  }

  /** A submission is about to leave: its cost counts against the budget and balance until the answer arrives. */
  reserve(batchId: string, cost: number): void {
    this.committed.set(batchId, (this.committed.get(batchId) ?? 0) + cost);
  }

  release(batchId: string, cost: number): void {
    this.committed.set(batchId, Math.max(0, (this.committed.get(batchId) ?? 0) - cost));
  }

  /** The service accepted (and charged) an execution. */
  charged(cost: number): void {
    if (this.balance !== null) this.balance -= cost;
  }

  /** A failed execution was refunded by the service. */
  refunded(cost: number): void {
    if (this.balance !== null) this.balance += cost;
  }

  /** null: go; 'wait': balance being refreshed; a pause: pause the batch with it. */
  check(batch: BatchRecord): BatchPause | 'wait' | null {
    const cost = batch.creditCost;
    const committed = this.committed.get(batch.id) ?? 0;
    if (!withinCredits(batch.creditsSpent + committed + cost, batch.budget)) {
      return { code: 'budget', reason: `budget reached: ${creditAmount(batch.creditsSpent)} of ${formatCredits(batch.budget!)} spent, the next item costs ${formatCredits(cost)}` };
    }
    if (this.balance === null) return null;
    const allCommitted = this.committedTotal;
    if (withinCredits(cost, this.balance - allCommitted)) {
      if (nowMs() - this.balanceAt > (this.deps.balanceRefreshMs ?? 30_000)) void this.refresh();
      return null;
    }
    // Looks short: a stale balance may be missing a top-up, so ask before pausing.
    if (nowMs() - this.balanceAt > 2_000) {
      void this.refresh().then(() => this.deps.kick());
      return 'wait';
    }
    // Submissions in flight may still be refused (and so not charged): decide once they have answered.
    if (allCommitted > 0) return 'wait';
    return { code: 'insufficient-credits', reason: `insufficient credits: balance ${formatCredits(this.balance)}, the next item costs ${formatCredits(cost)}. Top up, then resume.` };
  }

  /**
   * The one way the engine reads the balance (a refresh, the estimate, the offline probe, the app's header): each
   * read is the guard's new balance and is offered to balance evidence as an anchor (taken only at a quiet moment).
   */
  async read(options: { timeoutMs?: number } = {}): Promise<Balance> {
    const ticket = this.deps.evidence?.ticket();
    const balance = await this.deps.client.getBalance(options);
    this.setBalance(balance.apiCredits);
    if (ticket) this.deps.evidence?.observe(balance.apiCredits, ticket);
    return balance;
  }

  async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      await this.deps.gate.acquire();
      await this.read();
      this.deps.gate.succeeded();
    } catch (error) {
      if (isAppError(error) && error.code === 'network') this.deps.gate.networkFailed();
    } finally {
      this.refreshing = false;
    }
  }
}
