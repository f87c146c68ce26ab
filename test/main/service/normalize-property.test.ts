import { describe, expect, it } from 'vitest';
import {
  executionIdOf, normalizeBalance, normalizeExecution, normalizeWorkflowDetail, normalizeWorkflowList,
} from '../../../main/core/service/normalize';
import type { Balance, Execution, WorkflowDetail } from '../../../shared/service/model';
import { normalizeContext } from './helpers';

// Property-style checks: a valid record, re-spelled at random (key casing, alias names, envelopes, numbers as
// strings, options and tags as objects, grouped or flat schemas), must normalize to the same model. A small seeded
// generator keeps every failure reproducible: the seed is in the test name.

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pickOne = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const chance = (rng: Rng, p = 0.5) => rng() < p;
const word = (rng: Rng) => pickOne(rng, ['warm', 'cool', 'mono', 'grain', 'fade', 'pop', 'noir', 'soft', 'crisp', 'matte']) + Math.floor(rng() * 100);

function words(camel: string): string[] {
  return camel.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(' ');
}

const CASINGS: ((w: string[]) => string)[] = [
  (w) => w[0] + w.slice(1).map((p) => p[0]!.toUpperCase() + p.slice(1)).join(''),
  (w) => w.join('_'),
  (w) => w.map((p) => p[0]!.toUpperCase() + p.slice(1)).join(''),
  (w) => w.join('-'),
  (w) => w.join('_').toUpperCase(),
];

/** Marks a map whose keys are data (labels), not field names: re-casing must leave those keys alone. */
const DATA_KEYS = Symbol('data keys');
function dataMap<T extends object>(map: T): T {
  Object.defineProperty(map, DATA_KEYS, { value: true, enumerable: false });
  return map;
}

/** Re-cases every key of every object (values untouched), each key with its own random style. */
function recase(rng: Rng, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => recase(rng, v));
  if (typeof value !== 'object' || value === null || DATA_KEYS in value) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [pickOne(rng, CASINGS)(words(k)), recase(rng, v)]));
}

function envelope(rng: Rng, body: unknown): unknown {
  return pickOne(rng, [
    () => body,
    () => ({ data: body }),
    () => ({ result: body }),
    () => ({ success: true, data: body }),
    () => ({ success: true, data: { result: body } }),
  ])();
}

const num = (rng: Rng, n: number): unknown => (chance(rng, 0.3) ? String(n) : n);

function randomDetail(rng: Rng): WorkflowDetail {
  const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `${word(rng)}-${i}`, label: chance(rng) ? word(rng) : `${i}` }));
  return {
    id: `wf_${Math.floor(rng() * 1e6)}`,
    name: `${word(rng)} workflow`,
    description: chance(rng) ? `About ${word(rng)}` : '',
    tags: Array.from({ length: Math.floor(rng() * 3) }, (_, i) => `${word(rng)}${i}`),
    creditCost: Math.floor(rng() * 20) + (chance(rng, 0.2) ? 0.5 : 0),
    inputSchema: {
      imageFields: Array.from({ length: 1 + Math.floor(rng() * 2) }, (_, i) => ({ id: `img${i}`, label: `Image ${i}`, required: chance(rng, 0.7) })),
      textFields: Array.from({ length: Math.floor(rng() * 3) }, (_, i) => ({
        id: `txt${i}`, label: `Text ${i}`, required: chance(rng, 0.3),
        ...(chance(rng) ? { presetOptions: options(1 + Math.floor(rng() * 3)) } : {}),
      })),
      switchFields: Array.from({ length: Math.floor(rng() * 3) }, (_, i) => ({
        id: `sw${i}`, label: `Switch ${i}`, required: chance(rng, 0.3), options: options(1 + Math.floor(rng() * 4)), multiple: chance(rng),
      })),
    },
  };
}

function wireOption(rng: Rng, option: { id: string; label: string }): unknown {
  if (option.id === option.label && chance(rng)) return option.id;
  return { [pickOne(rng, ['id', 'value'])]: option.id, [pickOne(rng, ['label', 'name'])]: option.label };
}

function wireSummary(rng: Rng, wf: WorkflowDetail): Record<string, unknown> {
  return {
    [pickOne(rng, ['id', 'workflowId', 'workflow_id'])]: wf.id,
    name: wf.name,
    ...(wf.description || chance(rng) ? { description: wf.description } : {}),
    ...(wf.tags.length || chance(rng) ? { tags: wf.tags.map((t) => (chance(rng) ? t : { name: t })) } : {}),
    [pickOne(rng, ['creditCost', 'credit_cost', 'credits', 'cost', 'price'])]: num(rng, wf.creditCost),
  };
}

function wireDetail(rng: Rng, wf: WorkflowDetail): Record<string, unknown> {
  const s = wf.inputSchema;
  const image = s.imageFields.map((f) => ({ id: f.id, label: f.label, ...(f.required ? (chance(rng) ? { required: true } : {}) : { required: false }) }));
  const text = s.textFields.map((f) => ({
    id: f.id, label: f.label, required: f.required,
    ...(f.presetOptions ? { [pickOne(rng, ['presetOptions', 'options'])]: f.presetOptions.map((o) => wireOption(rng, o)) } : {}),
  }));
  const sw = s.switchFields.map((f) => ({
    id: f.id, label: f.label, required: f.required, options: f.options.map((o) => wireOption(rng, o)),
    ...(f.multiple ? (chance(rng) ? { multiple: true } : {}) : chance(rng) ? { multiple: false } : { maxSelections: 1 }),
  }));
  const schema = chance(rng)
    ? { [pickOne(rng, ['imageFields', 'images'])]: image, [pickOne(rng, ['textFields', 'texts'])]: text, [pickOne(rng, ['switchFields', 'switches'])]: sw }
    : [...image.map((f) => ({ ...f, type: 'image' })), ...text.map((f) => ({ ...f, type: 'text' })), ...sw.map((f) => ({ ...f, type: pickOne(rng, ['switch', 'selection']) }))];
  return { ...wireSummary(rng, wf), [pickOne(rng, ['inputSchema', 'input_schema', 'schema'])]: schema };
}

function randomExecution(rng: Rng): { model: Execution; wire: Record<string, unknown> } {
  const status = pickOne(rng, ['queued', 'running', 'completed', 'failed', 'cancelled'] as const);
  const synonyms = {
    queued: ['queued', 'pending', 'waiting', 'submitted'],
    running: ['running', 'processing', 'in_progress', 'started'],
    completed: ['completed', 'succeeded', 'success', 'done', 'finished'],
    failed: ['failed', 'error'],
    cancelled: ['cancelled', 'canceled', 'expired', 'timeout'],
  }[status];
  const progress = status === 'completed' ? 100 : Math.floor(rng() * 100);
  const urls = status === 'completed' ? Array.from({ length: 1 + Math.floor(rng() * 3) }, (_, i) => `https://cdn.example.com/r/${word(rng)}-${i}.png`) : [];
  const id = `ex_${Math.floor(rng() * 1e9)}`;
  const wireUrls = urls.map((u) => (chance(rng) ? u : { [pickOne(rng, ['url', 'uri', 'href'])]: u }));
  const wire: Record<string, unknown> = {
    [pickOne(rng, ['executionId', 'execution_id', 'id', 'taskId'])]: id,
    status: chance(rng) ? pickOne(rng, synonyms) : pickOne(rng, synonyms).toUpperCase(),
    [pickOne(rng, ['progress', 'progressPercent', 'percent', 'percentage'])]: num(rng, progress),
    ...(urls.length ? { [pickOne(rng, ['resultUrls', 'result_urls', 'results', 'outputs', 'output', 'images', 'urls'])]: wireUrls } : {}),
  };
  return { model: { id, status, progress, resultUrls: urls }, wire };
}

function randomBalance(rng: Rng): { model: Balance; wire: Record<string, unknown> } {
  const breakdown = Array.from({ length: 1 + Math.floor(rng() * 3) }, (_, i) => ({ label: `bucket${i}`, credits: Math.floor(rng() * 500) }));
  const total = breakdown.reduce((s, b) => s + b.credits, 0);
  const apiCredits = Math.floor(rng() * 10_000);
  const web = pickOne(rng, [
    () => ({ total: num(rng, total), breakdown: breakdown.map((b) => ({ label: b.label, credits: num(rng, b.credits) })) }),
    () => dataMap(Object.fromEntries(breakdown.map((b) => [b.label, num(rng, b.credits)]))),
    () => breakdown.map((b) => ({ [pickOne(rng, ['label', 'name', 'type'])]: b.label, [pickOne(rng, ['credits', 'amount'])]: num(rng, b.credits) })),
  ])();
  const wire = {
    [pickOne(rng, ['apiCredits', 'api_credits', 'credits', 'balance'])]: num(rng, apiCredits),
    [pickOne(rng, ['webCredits', 'web_credits'])]: web,
  };
  return { model: { apiCredits, webCredits: { total, breakdown } }, wire };
}

const SEEDS = Array.from({ length: 60 }, (_, i) => 1000 + i * 7919);

describe('normalizer properties', () => {
  it.each(SEEDS)('a re-spelled workflow list and detail normalize to the same model (seed %i)', (seed) => {
    const rng = mulberry32(seed);
    const workflows = Array.from({ length: 1 + Math.floor(rng() * 3) }, () => randomDetail(rng));
    const listBody = pickOne(rng, [
      () => workflows.map((w) => wireSummary(rng, w)),
      () => ({ [pickOne(rng, ['workflows', 'items', 'data', 'results'])]: workflows.map((w) => wireSummary(rng, w)) }),
    ])();
    const listed = normalizeWorkflowList(normalizeContext().ctx, envelope(rng, recase(rng, listBody)));
    expect(listed).toEqual(workflows.map(({ inputSchema: _schema, ...summary }) => summary));
    for (const wf of workflows) {
      const body = envelope(rng, recase(rng, wireDetail(rng, wf)));
      expect(normalizeWorkflowDetail(normalizeContext().ctx, body)).toEqual(wf);
    }
  });

  it.each(SEEDS)('a re-spelled execution and balance normalize to the same model (seed %i)', (seed) => {
    const rng = mulberry32(seed);
    const { model, wire } = randomExecution(rng);
    expect(normalizeExecution(normalizeContext().ctx, envelope(rng, recase(rng, wire)), 'ignored')).toEqual(model);
    expect(executionIdOf(envelope(rng, recase(rng, wire)))).toBe(model.id);
    const balance = randomBalance(rng);
    expect(normalizeBalance(normalizeContext().ctx, envelope(rng, recase(rng, balance.wire)))).toEqual(balance.model);
  });
});
