import { resolve } from 'node:path';
import {
  COLLISION_POLICIES, COLOUR_POLICIES, METADATA_POLICIES, OUTPUT_FORMATS, RAW_PAIR_MODES, SIDECAR_KINDS, sidecarKindOf, type BatchSpecInput, type CollisionPolicy,
} from '../../shared/engine/model';
import { ASPECT_RATIOS, IMAGE_SIZES, type AspectRatio, type ImageSize, type WorkflowDetail } from '../../shared/service/model';
import type { Settings } from '../../shared/settings/schema';
import { validateWorkflowParameters } from '../../shared/service/validate-request';
import { UsageError } from './errors';
import { priorityOf } from './priority-flag';

/** The flags of `batchroom run` as commander hands them over. */
export interface RunFlags {
  workflow: string;
  /** A saved recipe's name or a recipe file (recipe-spec.ts): its values, the other flags replacing them. */
  recipe?: string;
  text: string[];
  switch: string[];
  mapping: string[];
  aspect?: string;
  size?: string;
  imageField?: string;
  out?: string;
  recursive?: boolean;
  naming?: string;
  onCollision?: string;
  /** keep, strip-gps or strip (default: settings). */
  metadata?: string;
  /** none, json or xmp (default: settings). */
  sidecar?: string;
  /** source, jpeg, png, tiff or webp (default: settings). */
  format?: string;
  /** JPEG/WebP quality 1–100 (default: settings). */
  quality?: string;
  /** srgb or source (default: settings). */
  colour?: string;
  /** jpeg, raw or both: which half of a RAW+JPEG pair is edited (default: settings). */
  rawPairs?: string;
  /** Try first: only this many photos, spread across the selection. */
  try?: string;
  budget?: string;
  yes?: boolean;
  /** Run photos already done with this workflow and parameters again, paying again. */
  rerun?: boolean;
  /** The job and the client the batch is for (`batchroom report --by job|client`); flags only, never from a recipe. */
  job?: string;
  client?: string;
  /** The batch's queue priority, -100…100 (priority-flag.ts); flags only. */
  priority?: string;
  /** Show the estimate's progress line on stderr even without a terminal. */
  progress?: boolean;
}

function splitPair(raw: string, flag: string, example: string): [string, string] {
  const at = raw.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} expects field=value, got "${raw}".`, `For example: ${flag} ${example}`);
  return [raw.slice(0, at).trim(), raw.slice(at + 1)];
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}").`);
}

/** The spec's limit on job and client (shared/engine/model.ts): said as a usage error before its schema refuses it. */
const MAX_TAG_LENGTH = 120;

/** A --job or --client value, trimmed; an empty one is no tag at all. */
function tagOf(value: string | undefined, flag: string): string | undefined {
  const tag = value?.trim();
  if (!tag) return undefined;
  if (tag.length > MAX_TAG_LENGTH) throw new UsageError(`${flag} must be at most ${MAX_TAG_LENGTH} characters (got ${tag.length}).`);
  return tag;
}

function tryCountOf(value: string): number {
  const n = Number(value);
  if (Number.isInteger(n) && n >= 1 && n <= 50) return n;
  throw new UsageError(`--try must be a whole number of photos from 1 to 50 (got "${value}").`);
}

function qualityOf(value: string): number {
  const quality = Number(value);
  if (Number.isInteger(quality) && quality >= 1 && quality <= 100) return quality;
  throw new UsageError(`--quality must be a whole number from 1 to 100 (got "${value}").`);
}

/** A problem's field (`texts.caption`) as the flag that set it, with what was given (`--text caption (250 characters)`). */
function flagOf(field: string, texts: Record<string, string>): string {
  const [section, id = ''] = field.split(/\.(.*)/s);
  if (section === 'texts') return `--text ${id} (${[...(texts[id] ?? '')].length} characters)`;
  if (section === 'switchSelections') return `--switch ${id}`;
  if (field === 'globalOverrides.aspectRatio') return '--aspect';
  if (field === 'globalOverrides.imageSize') return '--size';
  return field;
}

/**
 * Turns the flags into a batch spec, checking field ids and option values against the workflow first so a typo is
 * a usage error naming the valid choices, not a failed batch.
 */
export function buildRunSpec(flags: RunFlags, paths: string[], workflow: WorkflowDetail, settings: Settings, cwd = process.cwd()): BatchSpecInput {
  const { textFields, switchFields, imageFields } = workflow.inputSchema;
  const fieldHint = `\`batchroom workflow ${workflow.id}\` lists its fields.`;

  const texts: Record<string, string> = {};
  for (const raw of flags.text) {
    const [id, value] = splitPair(raw, '--text', 'caption="Hello"');
    const field = textFields.find((f) => f.id === id);
    if (!field) throw new UsageError(`${workflow.id} has no text field "${id}" (text fields: ${textFields.map((f) => f.id).join(', ') || 'none'}).`, fieldHint);
    if (field.presetOptions && !field.presetOptions.some((o) => o.id === value)) {
      throw new UsageError(`--text ${id} must be one of ${field.presetOptions.map((o) => o.id).join(', ')} (got "${value}").`);
    }
    texts[id] = value;
  }

  const switchSelections: Record<string, string[]> = {};
  for (const raw of flags.switch) {
    const [id, value] = splitPair(raw, '--switch', 'effects=grain,vignette');
    const field = switchFields.find((f) => f.id === id);
    if (!field) throw new UsageError(`${workflow.id} has no switch field "${id}" (switch fields: ${switchFields.map((f) => f.id).join(', ') || 'none'}).`, fieldHint);
    const chosen = value.split(',').map((v) => v.trim()).filter(Boolean);
    const unknown = chosen.filter((c) => !field.options.some((o) => o.id === c));
    if (unknown.length) throw new UsageError(`--switch ${id}: unknown option ${unknown.join(', ')} (options: ${field.options.map((o) => o.id).join(', ')}).`);
    if (!field.multiple && chosen.length > 1) throw new UsageError(`--switch ${id} takes at most one option.`);
    switchSelections[id] = chosen;
  }

  // Required values are checked here so a forgotten flag is a usage error before anything is priced or sent.
  const missingText = textFields.filter((f) => f.required && !texts[f.id]?.trim());
  const missingSwitch = switchFields.filter((f) => f.required && !switchSelections[f.id]?.length && !f.defaultSelection?.length);
  if (missingText.length || missingSwitch.length) {
    const needed = [
      ...missingText.map((f) => `--text ${f.id}=${f.presetOptions ? f.presetOptions.map((o) => o.id).join('|') : '…'}`),
      ...missingSwitch.map((f) => `--switch ${f.id}=${f.options.map((o) => o.id).join(',')}`),
    ];
    throw new UsageError(`${workflow.id} needs ${needed.join(' and ')}.`, fieldHint);
  }

  const imageIds = imageFields.map((f) => f.id);
  if (flags.imageField && !imageIds.includes(flags.imageField)) {
    throw new UsageError(`${workflow.id} has no image field "${flags.imageField}" (image fields: ${imageIds.join(', ')}).`, fieldHint);
  }
  const mappings = flags.mapping.map((raw) => {
    const mapping: Record<string, string> = {};
    for (const part of raw.split(',')) {
      const [id, path] = splitPair(part, '--mapping', `${imageIds.join('=a.jpg,')}=b.jpg`);
      if (!imageIds.includes(id)) throw new UsageError(`--mapping: ${workflow.id} has no image field "${id}" (image fields: ${imageIds.join(', ')}).`);
      mapping[id] = resolve(cwd, path);
    }
    return mapping;
  });
  if (paths.length === 0 && mappings.length === 0) {
    throw new UsageError('No input photos given.', 'Name files or folders after the options, e.g. `batchroom run --workflow <id> --out results/ photos/`.');
  }

  // Without --out: the fixed folder from settings, else a `Batchroom` folder next to the photos (the engine resolves it).
  const outputFolder = flags.out ?? settings.outputFolder;
  const budget = flags.budget === undefined ? null : Number(flags.budget);
  if (budget !== null && !(Number.isFinite(budget) && budget >= 0)) throw new UsageError(`--budget must be a number of credits ≥ 0 (got "${flags.budget}").`);

  const globalOverrides: { aspectRatio?: AspectRatio; imageSize?: ImageSize } = {};
  if (flags.aspect) globalOverrides.aspectRatio = oneOf(flags.aspect, ASPECT_RATIOS, '--aspect');
  if (flags.size) globalOverrides.imageSize = oneOf(flags.size.toUpperCase(), IMAGE_SIZES, '--size');
  const job = tagOf(flags.job, '--job');
  const client = tagOf(flags.client, '--client');
  const priority = priorityOf(flags.priority);
  const collisionPolicy: CollisionPolicy = flags.onCollision ? oneOf(flags.onCollision, COLLISION_POLICIES, '--on-collision') : settings.collisionPolicy;

  const parameters = {
    ...(Object.keys(texts).length ? { texts } : {}),
    ...(Object.keys(switchSelections).length ? { switchSelections } : {}),
    ...(Object.keys(globalOverrides).length ? { globalOverrides } : {}),
  };
  // The field limits (a text's maxLength, a switch's number of options) are checked here, as the service client
  // would before each submit: a value every item would fail with is a usage error before pricing, not a failed batch.
  const checked = validateWorkflowParameters(workflow, parameters);
  if (!checked.ok) {
    const [first] = checked.problems;
    throw new UsageError(`${flagOf(first!.field, texts)} ${first!.message}.`, fieldHint);
  }

  return {
    workflowId: workflow.id,
    parameters,
    inputs: {
      paths: paths.map((p) => resolve(cwd, p)),
      recursive: flags.recursive === true,
      ...(flags.imageField ? { imageField: flags.imageField } : {}),
      mappings,
      rawPairs: flags.rawPairs ? oneOf(flags.rawPairs, RAW_PAIR_MODES, '--raw-pairs') : settings.rawPairs,
    },
    output: {
      outputFolder: outputFolder ? resolve(cwd, outputFolder) : '',
      namingTemplate: flags.naming ?? settings.namingTemplate,
      collisionPolicy,
      sidecar: flags.sidecar ? oneOf(flags.sidecar, SIDECAR_KINDS, '--sidecar') : sidecarKindOf(settings),
      metadata: flags.metadata ? oneOf(flags.metadata, METADATA_POLICIES, '--metadata') : settings.metadataPolicy,
      format: flags.format ? oneOf(flags.format, OUTPUT_FORMATS, '--format') : settings.outputFormat,
      quality: flags.quality === undefined ? settings.jpegQuality : qualityOf(flags.quality),
      colour: flags.colour ? oneOf(flags.colour, COLOUR_POLICIES, '--colour') : settings.colourPolicy,
    },
    encode: { uploadSizePolicy: settings.uploadSizePolicy, stripMetadata: settings.stripMetadata },
    budget,
    rerun: flags.rerun === true,
    tryFirst: flags.try === undefined ? null : tryCountOf(flags.try),
    source: { kind: 'cli' },
    ...(job ? { job } : {}),
    ...(client ? { client } : {}),
    ...(priority !== 0 ? { priority } : {}),
  };
}
