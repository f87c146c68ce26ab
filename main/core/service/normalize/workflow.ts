import { WorkflowDetailSchema, WorkflowSummarySchema, type WorkflowDetail, type WorkflowSummary } from '../../../../shared/service/model';
import { formatZodError } from '../../../../shared/validation';
import { ServiceError, shapeError } from '../errors';
import type { NormalizeContext } from './context';
import { normalizeInputSchema } from './input-schema';
import { isRecord, keysOf, pick, pickValue, toNumber, toText, unwrap, type WireRecord } from './wire';

const ID_KEYS = ['id', 'workflowId', 'uuid', 'slug'];
const NAME_KEYS = ['name', 'title', 'displayName', 'label'];
const DESCRIPTION_KEYS = ['description', 'desc', 'summary', 'details'];
const TAG_KEYS = ['tags', 'labels', 'categories', 'tagList'];
const COST_KEYS = ['creditCost', 'credits', 'cost', 'price', 'creditsCost', 'costCredits', 'creditPrice', 'creditsPerRun', 'costPerRun'];
const LIST_KEYS = ['workflows', 'items', 'data', 'results', 'records', 'list', 'entries'];

function looksLikeWorkflow(value: unknown): boolean {
  return isRecord(value) && pick(value, ID_KEYS) !== undefined && pick(value, [...NAME_KEYS, ...COST_KEYS]) !== undefined;
}

function tagsOf(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  const tags = list
    .map((tag) => (isRecord(tag) ? toText(pickValue(tag, ['name', 'label', 'title', 'slug', 'id', 'value'])) : toText(tag)))
    .filter((tag): tag is string => tag !== undefined);
  return [...new Set(tags)];
}

/** Credits are money: a cost that is absent or not a number is a shape error, never a default. */
function costOf(ctx: NormalizeContext, record: WireRecord, id: string): number {
  const found = pick(record, COST_KEYS);
  let value = found?.value;
  // `{cost: {credits: 3}}` / `{price: {amount: 3, currency: 'credits'}}`
  if (isRecord(value)) value = pickValue(value, ['credits', 'amount', 'value', 'creditCost']);
  const cost = toNumber(value);
  if (cost === undefined || cost < 0) {
    const what = found ? `the credit cost of workflow "${id}" ("${found.key}") is not a number of credits` : `workflow "${id}" has no credit cost`;
    throw shapeError(ctx.endpoint, what, keysOf(record));
  }
  return cost;
}

function summaryOf(ctx: NormalizeContext, raw: unknown): WorkflowSummary {
  if (!isRecord(raw)) throw shapeError(ctx.endpoint, 'a workflow entry is not an object', keysOf(raw));
  const id = toText(pickValue(raw, ID_KEYS));
  if (id === undefined) throw shapeError(ctx.endpoint, 'a workflow has no id', keysOf(raw));
  const summary = {
    id,
    name: toText(pickValue(raw, NAME_KEYS)) ?? id,
    description: toText(pickValue(raw, DESCRIPTION_KEYS)) ?? '',
    tags: tagsOf(pickValue(raw, TAG_KEYS)),
    creditCost: costOf(ctx, raw, id),
  };
  const parsed = WorkflowSummarySchema.safeParse(summary);
  if (!parsed.success) throw shapeError(ctx.endpoint, `workflow "${id}" is invalid`, keysOf(raw), formatZodError(parsed.error));
  return parsed.data;
}

function listOf(ctx: NormalizeContext, body: unknown): unknown[] {
  let current = body;
  for (let depth = 0; depth < 4; depth++) {
    if (Array.isArray(current)) return current;
    if (!isRecord(current)) break;
    const list = pick(current, LIST_KEYS);
    if (list && Array.isArray(list.value)) return list.value;
    const inner = unwrap(current, () => false);
    if (inner === current) break;
    current = inner;
  }
  throw shapeError(ctx.endpoint, 'no list of workflows found', keysOf(current));
}

/**
 * A workflow list in any envelope. One malformed entry does not hide the others (it is skipped with a warning), but a
 * list whose every entry is malformed is a shape error: the client cannot tell that apart from a changed wire format.
 */
export function normalizeWorkflowList(ctx: NormalizeContext, body: unknown): WorkflowSummary[] {
  return normalizeWorkflowPage(ctx, body).workflows;
}

/** One page of a workflow list: the readable workflows and the number of raw entries (for offset pagination). */
export function normalizeWorkflowPage(ctx: NormalizeContext, body: unknown): { workflows: WorkflowSummary[]; entries: number } {
  const entries = listOf(ctx, body);
  const out: WorkflowSummary[] = [];
  let firstError: ServiceError | undefined;
  for (const entry of entries) {
    try {
      out.push(summaryOf(ctx, entry));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      firstError ??= error;
      ctx.log.warn('skipping a workflow the client cannot read', { endpoint: ctx.endpoint, problem: error.message });
    }
  }
  if (out.length === 0 && firstError) throw firstError;
  return { workflows: out, entries: entries.length };
}

export function normalizeWorkflowDetail(ctx: NormalizeContext, body: unknown): WorkflowDetail {
  const record = unwrap(body, looksLikeWorkflow, ['workflow']);
  if (!isRecord(record)) throw shapeError(ctx.endpoint, 'the workflow is not an object', keysOf(record));
  const summary = summaryOf(ctx, record);
  const detail = { ...summary, inputSchema: normalizeInputSchema(ctx, record) };
  const parsed = WorkflowDetailSchema.safeParse(detail);
  if (!parsed.success) throw shapeError(ctx.endpoint, `workflow "${summary.id}" is invalid`, keysOf(record), formatZodError(parsed.error));
  return parsed.data;
}
