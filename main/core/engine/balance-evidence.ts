import { z } from 'zod';
import { formatCredits } from '../../../shared/engine/money';

// Balance evidence: whether submissions whose answer was lost (a crash or kill mid-submit, a connection cut after the
// upload) were charged. The service offers no list of executions, so the only witness is the balance:
//
//   anchor: balance B0 and the journal's known charges K0, read together at a quiet moment (nothing of ours unanswered
//           or unsettled, so neither side can be ahead of the other);
//   now:    balance B1 and known charges K1, read the same way, twice a few seconds apart.
//
// Every credit that left the account since the anchor is either a charge the journal knows (K1 − K0) or a lost
// submission's, so the lost ones cost Δ = (B0 + K0) − (B1 + K1). Δ = 0 proves none was charged (they are sent once
// more); Δ = their whole cost proves all were (charged-no-result, reported to the provider); anything else is shown as
// evidence and left to the user. A top-up or another client spending on the key breaks the equation: that is why the
// reads must agree, why a Δ the lost items cannot explain decides nothing, and why studio mode (several machines on
// one key) never uses it. Assumed of the service, as the engine assumes elsewhere: a failed execution is refunded.

const AnchorSchema = z.object({ balance: z.number(), charged: z.number(), at: z.string() });

export const EvidenceStateSchema = z.object({
  anchor: AnchorSchema.nullable(),
  /** Items whose submission was lost after the anchor was taken, not judged yet. */
  lost: z.array(z.string()),
  /** Items already sent again once on the balance's word: never again automatically. */
  resent: z.array(z.string()),
  /** Credits the balance proved charged for lost submissions: the journal has no execution row for them. */
  chargedWithoutExecution: z.number(),
});
export type EvidenceState = z.infer<typeof EvidenceStateSchema>;

export const EMPTY_EVIDENCE: EvidenceState = { anchor: null, lost: [], resent: [], chargedWithoutExecution: 0 };

/** A stored state, or a fresh one when there is none or it cannot be read (evidence is an aid: losing it loses nothing). */
export function parseEvidenceState(json: string | null): EvidenceState {
  if (json === null) return { ...EMPTY_EVIDENCE };
  try {
    const parsed = EvidenceStateSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : { ...EMPTY_EVIDENCE };
  } catch {
    return { ...EMPTY_EVIDENCE };
  }
}

export type Judgement =
  | { kind: 'none-charged' }
  | { kind: 'all-charged'; credits: number }
  /** `count` is null when the lost items cost different amounts and the credits do not say how many. */
  | { kind: 'some-charged'; count: number | null; credits: number }
  | { kind: 'unexplained'; credits: number };

const EPSILON = 1e-6;

export function judgeLost(input: { anchor: { balance: number; charged: number }; balance: number; charged: number; costs: readonly number[] }): Judgement {
  const credits = input.anchor.balance + input.anchor.charged - (input.balance + input.charged);
  const total = input.costs.reduce((a, b) => a + b, 0);
  if (Math.abs(credits) < EPSILON) return { kind: 'none-charged' };
  if (Math.abs(credits - total) < EPSILON) return { kind: 'all-charged', credits: total };
  if (credits < 0 || credits > total) return { kind: 'unexplained', credits };
  const cost = input.costs[0]!;
  if (input.costs.every((c) => Math.abs(c - cost) < EPSILON)) {
    const count = credits / cost;
    return Math.abs(count - Math.round(count)) < EPSILON ? { kind: 'some-charged', count: Math.round(count), credits } : { kind: 'unexplained', credits };
  }
  return { kind: 'some-charged', count: null, credits };
}

const photos = (n: number) => `${n} lost submission${n === 1 ? '' : 's'}`;

/** What a lost item's reason says once the balance has been read (none-charged items are sent again instead). */
export function evidenceReason(judgement: Judgement, lost: number): string {
  switch (judgement.kind) {
    case 'none-charged':
      return 'the balance shows it was not charged, but it was already sent again once automatically: resubmit it yourself if you want another try.';
    case 'all-charged':
      return `the balance shows it was charged (all ${photos(lost)}: ${formatCredits(judgement.credits)}), but the service never answered with an execution. It is listed in "Report to provider".`;
    case 'some-charged': {
      const which = judgement.count === null ? `${formatCredits(judgement.credits)} of these ${photos(lost)}` : `${judgement.count} of these ${photos(lost)} (${formatCredits(judgement.credits)})`;
      return `the balance shows ${which} were charged, and cannot tell which. Check the provider's dashboard, then resubmit those whose result never appears.`;
    }
    case 'unexplained':
      return `the balance moved by ${formatCredits(judgement.credits)}, which ${photos(lost)} cannot explain (a top-up, or another app or machine using this key?), so it cannot tell whether this was charged. Resubmit it if its result never appears.`;
  }
}

export const LOST_AWAITING_EVIDENCE =
  'the answer to its submission was lost: it may have been charged. Batchroom reads the balance once nothing else is running and sends it again if that proves it was not charged.';

export const BALANCE_KEPT_MOVING =
  'the answer to its submission was lost, and the balance kept changing while Batchroom read it (another batch, app or machine using this key?), so it cannot tell whether this was charged. Resubmit it if its result never appears.';
