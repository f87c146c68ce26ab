import { tooManyRequests } from './errors';
import { insufficientCredits, type CreditLedger } from './credit-ledger';
import type { SandboxLimits } from './options';

// Per-key state: request token bucket and the number of executions that are queued or running; the credit balance
// lives in a CreditLedger (memory, or the state folder's file for the embedded sandbox). Credits are charged when an
// execution is accepted and refunded if it fails, mirroring how a paid API behaves.

export interface Account {
  /** Credits granted by the (imaginary) web plan: reported, never spent by the API. */
  webCredits: { label: string; credits: number }[];
  tokens: number;
  tokensUpdatedAt: number;
  /** Executions queued or running plus executes still being prepared (reserved). */
  active: number;
}

export const WEB_CREDIT_BREAKDOWN = [
  { label: 'Monthly plan', credits: 500 },
  { label: 'Top-up', credits: 120 },
  { label: 'Promotional', credits: 25 },
];

export class Accounts {
  private readonly accounts = new Map<string, Account>();

  constructor(
    private readonly credits: CreditLedger,
    private readonly limits: () => SandboxLimits,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): Account {
    let account = this.accounts.get(key);
    if (!account) {
      account = {
        webCredits: WEB_CREDIT_BREAKDOWN.map((entry) => ({ ...entry })),
        tokens: this.limits().burst,
        tokensUpdatedAt: this.now(),
        active: 0,
      };
      this.accounts.set(key, account);
    }
    return account;
  }

  apiCredits(key: string): number {
    return this.credits.balance(key);
  }

  setCredits(key: string, credits: number): void {
    this.credits.set(key, credits);
  }

  /** Takes one request token or throws 429 `rate_limited` with the time until the next token. */
  takeRequestToken(key: string): void {
    const { requestsPerSecond, burst } = this.limits();
    if (!Number.isFinite(requestsPerSecond)) return;
    const account = this.get(key);
    const now = this.now();
    account.tokens = Math.min(burst, account.tokens + ((now - account.tokensUpdatedAt) / 1000) * requestsPerSecond);
    account.tokensUpdatedAt = now;
    if (account.tokens < 1) {
      throw tooManyRequests('rate_limited', `rate limit of ${requestsPerSecond} requests per second exceeded`, (1 - account.tokens) / requestsPerSecond);
    }
    account.tokens -= 1;
  }

  /** Reserves an execution slot (released by `release`) or throws 429 `concurrency_limit`. */
  reserveSlot(key: string): void {
    const { maxConcurrentExecutions } = this.limits();
    const account = this.get(key);
    if (account.active >= maxConcurrentExecutions) {
      throw tooManyRequests('concurrency_limit', `at most ${maxConcurrentExecutions} executions may be queued or running at once`, 1);
    }
    account.active += 1;
  }

  /** Counts an execution taken over from a stopped sandbox as queued or running (it was accepted before; no limit). */
  occupySlot(key: string): void {
    this.get(key).active += 1;
  }

  release(key: string): void {
    const account = this.get(key);
    account.active = Math.max(0, account.active - 1);
  }

  /** Throws 402 unless the balance covers `cost`. */
  assertCanPay(key: string, cost: number): void {
    const available = this.credits.balance(key);
    if (available < cost) throw insufficientCredits(cost, available);
  }

  /** Checks and deducts in one step of the ledger (another process may have spent meanwhile). */
  charge(key: string, cost: number): void {
    this.credits.charge(key, cost);
  }

  refund(key: string, amount: number): void {
    this.credits.refund(key, amount);
  }
}
