import { BalanceSchema, type Balance } from '../../../../shared/service/model';
import { formatZodError } from '../../../../shared/validation';
import { shapeError } from '../errors';
import type { NormalizeContext } from './context';
import { isRecord, keysOf, pick, pickValue, toNumber, toText, unwrap, type WireRecord } from './wire';

const API_CREDIT_KEYS = ['apiCredits', 'apiCredit', 'apiBalance', 'credits', 'balance', 'available', 'remaining', 'amount'];
const WEB_KEYS = ['webCredits', 'webCredit', 'webBalance', 'webCreditBreakdown', 'webCreditsBreakdown', 'web'];
const BREAKDOWN_KEYS = ['breakdown', 'items', 'details', 'sources', 'buckets', 'entries', 'byType', 'bySource'];
const TOTAL_KEYS = ['total', 'totalCredits', 'sum', 'all'];
const LABEL_KEYS = ['label', 'name', 'type', 'source', 'kind', 'category', 'bucket', 'plan', 'id'];
const AMOUNT_KEYS = ['credits', 'amount', 'balance', 'value', 'remaining', 'available', 'count', 'total'];

function looksLikeBalance(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const api = pickValue(value, API_CREDIT_KEYS);
  return toNumber(api) !== undefined || (isRecord(api) && toNumber(pickValue(api, AMOUNT_KEYS)) !== undefined);
}

type WebCredits = Balance['webCredits'];

function amountOf(raw: unknown): number | undefined {
  return isRecord(raw) ? toNumber(pickValue(raw, AMOUNT_KEYS)) : toNumber(raw);
}

/** A breakdown as a list `[{label|name|type, credits|amount}]` or a map `{subscription: 20, purchased: {credits: 5}}`. */
function breakdownOf(raw: unknown): { label: string; credits: number }[] | undefined {
  if (Array.isArray(raw)) {
    const items = raw.map((item, index) => {
      const credits = amountOf(item);
      if (credits === undefined) return undefined;
      const label = (isRecord(item) ? toText(pickValue(item, LABEL_KEYS)) : undefined) ?? `credits ${index + 1}`;
      return { label, credits };
    });
    return items.every((i) => i !== undefined) ? (items as { label: string; credits: number }[]) : undefined;
  }
  if (isRecord(raw)) {
    const items: { label: string; credits: number }[] = [];
    for (const [label, value] of Object.entries(raw)) {
      const credits = amountOf(value);
      if (credits === undefined) return undefined;
      items.push({ label, credits });
    }
    return items;
  }
  return undefined;
}

function webCreditsOf(ctx: NormalizeContext, record: WireRecord): WebCredits {
  const found = pick(record, WEB_KEYS);
  const topBreakdown = pickValue(record, BREAKDOWN_KEYS);
  if (!found && topBreakdown === undefined) {
    ctx.log.debug('balance carries no web credits; reporting none', { endpoint: ctx.endpoint });
    return { total: 0, breakdown: [] };
  }
  const raw = found?.value;
  const total = toNumber(raw);
  if (total !== undefined) {
    // `{webCredits: 30, breakdown: {...}}`: a number here, the breakdown beside it.
    const breakdown = breakdownOf(topBreakdown) ?? [];
    return { total, breakdown };
  }
  if (isRecord(raw)) {
    const givenTotal = toNumber(pickValue(raw, TOTAL_KEYS));
    const nested = pick(raw, BREAKDOWN_KEYS);
    const rest = nested ? nested.value : Object.fromEntries(Object.entries(raw).filter(([key]) => pick({ [key]: 1 }, TOTAL_KEYS) === undefined));
    const breakdown = breakdownOf(rest);
    if (breakdown) return { total: givenTotal ?? sum(breakdown), breakdown };
  }
  const breakdown = breakdownOf(raw ?? topBreakdown);
  if (breakdown) return { total: sum(breakdown), breakdown };
  throw shapeError(ctx.endpoint, 'the web credits are neither a number, a breakdown object nor a list', keysOf(record));
}

function sum(items: { credits: number }[]): number {
  return items.reduce((total, item) => total + item.credits, 0);
}

export function normalizeBalance(ctx: NormalizeContext, body: unknown): Balance {
  const record = unwrap(body, looksLikeBalance, ['balance', 'account', 'wallet']);
  if (!isRecord(record)) throw shapeError(ctx.endpoint, 'the balance is not an object', keysOf(record));
  let api = pickValue(record, API_CREDIT_KEYS);
  if (isRecord(api)) api = pickValue(api, AMOUNT_KEYS);
  const apiCredits = toNumber(api);
  if (apiCredits === undefined) throw shapeError(ctx.endpoint, 'no API credit balance found', keysOf(record));
  const balance: Balance = { apiCredits, webCredits: webCreditsOf(ctx, record) };
  const parsed = BalanceSchema.safeParse(balance);
  if (!parsed.success) throw shapeError(ctx.endpoint, 'the balance is invalid', keysOf(record), formatZodError(parsed.error));
  return parsed.data;
}
