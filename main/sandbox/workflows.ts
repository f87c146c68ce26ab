import type { OverlayOptions } from 'sharp';
import { fitPipeline, fitToOutput, outputDimensions } from './imaging/output-size';
import { LOOK_LABELS, LOOKS, withHighContrast, withLook, type Look } from './imaging/looks';
import { captionSvg, composite, contentSeed, grainTile, labelSvg, vignetteLayer, type TextPosition } from './imaging/overlays';
import { encode, encodePipeline, pipeline, solidRaster, toRaster, type Raster } from './imaging/raster';
import type { FieldOption, WorkflowDefinition, WorkflowRunInput } from './workflow-types';
import { withSharp } from './with-sharp';

// The catalog: real, deterministic (non-AI) edits that together exercise every field kind, several tags, different
// costs, crop and pad, and a workflow with several results.

const options = (pairs: Record<string, string>): FieldOption[] => Object.entries(pairs).map(([id, label]) => ({ id, label }));
const photoField = { id: 'photo', label: 'Photo', description: 'The photo to edit.', required: true };

function image(input: WorkflowRunInput, field: string): Raster {
  const raster = input.images[field];
  if (!raster) throw new Error(`image field "${field}" missing after validation`);
  return raster;
}
const text = (input: WorkflowRunInput, field: string): string => input.texts[field] ?? '';
const switches = (input: WorkflowRunInput, field: string): Set<string> => new Set(input.switches[field] ?? []);

const colorGrade: WorkflowDefinition = {
  id: 'color-grade',
  name: 'Color Grade',
  description: 'Applies one colour look to a photo.',
  tags: ['color', 'photo'],
  creditCost: 1,
  aspectMode: 'crop',
  results: '1',
  inputSchema: {
    imageFields: [photoField],
    textFields: [{ id: 'look', label: 'Look', description: 'The colour look.', required: true, presetOptions: options(LOOK_LABELS) }],
    switchFields: [],
  },
  async run(input) {
    const { image: fitted, width, height } = fitPipeline(image(input, 'photo'), input.output, 'crop');
    return [await encodePipeline(withLook(fitted, text(input, 'look') as Look), 'jpeg', width, height)];
  },
};

const captionWatermark: WorkflowDefinition = {
  id: 'caption-watermark',
  name: 'Caption & Watermark',
  description: 'Draws your text into the photo as a caption or watermark.',
  tags: ['text', 'branding'],
  creditCost: 2,
  aspectMode: 'pad',
  results: '1',
  inputSchema: {
    imageFields: [photoField],
    textFields: [
      { id: 'caption', label: 'Caption', description: 'Free text drawn into the image.', required: true, maxLength: 200 },
      {
        id: 'position', label: 'Position', description: 'Where the caption goes.', required: false, defaultValue: 'bottom',
        presetOptions: options({ top: 'Top', center: 'Center', bottom: 'Bottom' }),
      },
    ],
    switchFields: [{
      id: 'style', label: 'Style', description: 'Caption styling.', minSelections: 0, maxSelections: 3, defaultSelection: ['shadow'],
      options: options({ shadow: 'Drop shadow', banner: 'Dark banner', uppercase: 'Uppercase' }),
    }],
  },
  async run(input) {
    const { image: fitted, width, height } = fitPipeline(image(input, 'photo'), input.output, 'pad');
    const style = switches(input, 'style');
    const svg = captionSvg(text(input, 'caption'), width, height, {
      position: text(input, 'position') as TextPosition,
      shadow: style.has('shadow'), banner: style.has('banner'), uppercase: style.has('uppercase'),
    });
    return [await encodePipeline(fitted.composite([{ input: svg }]), 'jpeg', width, height)];
  },
};

const filmEffects: WorkflowDefinition = {
  id: 'film-effects',
  name: 'Film Effects',
  description: 'Adds analogue-style effects: grain, vignette, contrast, softness or crispness.',
  tags: ['effects', 'photo'],
  creditCost: 2,
  aspectMode: 'crop',
  results: '1',
  inputSchema: {
    imageFields: [photoField],
    textFields: [],
    switchFields: [{
      id: 'effects', label: 'Effects', description: 'One or more effects, applied in a fixed order.', minSelections: 1, maxSelections: 5,
      defaultSelection: ['grain', 'vignette'],
      options: options({ grain: 'Film grain', vignette: 'Vignette', highContrast: 'High contrast', soften: 'Soften', sharpen: 'Sharpen' }),
    }],
  },
  async run(input) {
    const effects = switches(input, 'effects');
    const photo = image(input, 'photo');
    // One pipeline: resize → soften/sharpen → contrast → grain and vignette overlays (sharp's own order).
    let { image: fitted } = fitPipeline(photo, input.output, 'crop');
    const { width, height } = outputDimensions(input.output, photo.width, photo.height);
    if (effects.has('soften')) fitted = fitted.blur(1.5);
    if (effects.has('sharpen')) fitted = fitted.sharpen();
    if (effects.has('highContrast')) fitted = withHighContrast(fitted);
    const layers: OverlayOptions[] = [];
    if (effects.has('grain')) layers.push({ input: await grainTile(contentSeed(photo), width, height), tile: true, blend: 'overlay' as const });
    if (effects.has('vignette')) layers.push(await vignetteLayer(width, height));
    if (layers.length > 0) fitted = fitted.composite(layers);
    return [await encodePipeline(fitted, 'jpeg', width, height)];
  },
};

const beforeAfter: WorkflowDefinition = {
  id: 'before-after',
  name: 'Before / After',
  description: 'Places two photos side by side (or stacked) in one image.',
  tags: ['composite', 'comparison'],
  creditCost: 3,
  aspectMode: 'pad',
  results: '1',
  inputSchema: {
    imageFields: [
      { id: 'before', label: 'Before', description: 'Shown left (or top).', required: true },
      { id: 'after', label: 'After', description: 'Shown right (or bottom).', required: true },
    ],
    textFields: [{
      id: 'layout', label: 'Layout', description: 'Arrangement of the two photos.', required: false, defaultValue: 'horizontal',
      presetOptions: options({ horizontal: 'Side by side', vertical: 'Stacked' }),
    }],
    switchFields: [{
      id: 'decorations', label: 'Decorations', description: 'Extras drawn on the composite.', minSelections: 0, maxSelections: 2,
      defaultSelection: ['divider'], options: options({ divider: 'Divider line', labels: 'Before/After labels' }),
    }],
  },
  async run(input) {
    const vertical = text(input, 'layout') === 'vertical';
    const decorations = switches(input, 'decorations');
    // Each half is a square-ish tile; the pair is then fitted (padded) to the requested output.
    const tile = 1024;
    const halves = await Promise.all(['before', 'after'].map((field) =>
      toRaster(pipeline(image(input, field)).resize({ width: tile, height: tile, fit: 'contain', background: '#000000' }))));
    const width = vertical ? tile : tile * 2;
    const height = vertical ? tile * 2 : tile;
    const layers: Parameters<typeof composite>[1] = halves.map((half, i) => ({
      input: half.data, raw: { width: half.width, height: half.height, channels: 4 as const },
      left: vertical ? 0 : i * tile, top: vertical ? i * tile : 0,
    }));
    if (decorations.has('labels')) {
      layers.push({ input: labelSvg('Before', tile, tile), left: 0, top: 0 });
      layers.push({ input: labelSvg('After', tile, tile), left: vertical ? 0 : tile, top: vertical ? tile : 0 });
    }
    if (decorations.has('divider')) {
      const line = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect fill="#fff" ${
        vertical ? `x="0" y="${tile - 3}" width="${width}" height="6"` : `x="${tile - 3}" y="0" width="6" height="${height}"`}/></svg>`;
      layers.push({ input: Buffer.from(line) });
    }
    const canvas = await toRaster(pipelineBlank(width, height).composite(layers));
    const fitted = fitPipeline(canvas, input.output, 'pad');
    return [await encodePipeline(fitted.image, 'jpeg', fitted.width, fitted.height)];
  },
};

function pipelineBlank(width: number, height: number) {
  return pipeline(solidRaster(width, height, [0, 0, 0, 255]));
}

const lookVariations: WorkflowDefinition = {
  id: 'look-variations',
  name: 'Look Variations',
  description: 'Returns one result per selected colour look, to compare them.',
  tags: ['color', 'batch'],
  creditCost: 4,
  aspectMode: 'crop',
  results: 'one per selected look (2–6)',
  inputSchema: {
    imageFields: [photoField],
    textFields: [],
    switchFields: [{
      id: 'looks', label: 'Looks', description: 'Which looks to render.', minSelections: 2, maxSelections: 6,
      defaultSelection: ['warm', 'cool', 'mono', 'vivid'], options: options(LOOK_LABELS),
    }],
  },
  async run(input) {
    // Resize once, then one colour pipeline per look over the shared fitted raster.
    const fitted = await fitToOutput(image(input, 'photo'), input.output, 'crop');
    const chosen = LOOKS.filter((look) => switches(input, 'looks').has(look));
    return Promise.all(chosen.map(async (look) => ({
      ...await encodePipeline(withLook(pipeline(fitted), look), 'jpeg', fitted.width, fitted.height), label: LOOK_LABELS[look],
    })));
  },
};

export const BACKGROUNDS: Record<string, [number, number, number, number]> = {
  white: [255, 255, 255, 255], black: [0, 0, 0, 255], grey: [128, 128, 128, 255], transparent: [0, 0, 0, 0],
};

const productBackdrop: WorkflowDefinition = {
  id: 'product-backdrop',
  name: 'Product Backdrop',
  description: 'Centres a product photo on a backdrop photo or a plain (or transparent) background.',
  tags: ['product', 'composite'],
  creditCost: 5,
  aspectMode: 'pad',
  results: '1',
  inputSchema: {
    imageFields: [
      { id: 'product', label: 'Product', description: 'The product photo (transparency is kept).', required: true },
      { id: 'backdrop', label: 'Backdrop', description: 'Optional backdrop photo; replaces the plain background.', required: false },
    ],
    textFields: [{
      id: 'background', label: 'Background', description: 'Plain background when no backdrop is given.', required: false,
      defaultValue: 'white', presetOptions: options({ white: 'White', black: 'Black', grey: 'Grey', transparent: 'Transparent (PNG)' }),
    }],
    switchFields: [{
      id: 'extras', label: 'Extras', description: 'Finishing touches.', minSelections: 0, maxSelections: 2, defaultSelection: [],
      options: options({ shadow: 'Soft shadow', border: 'Thin border' }),
    }],
  },
  async run(input) {
    const product = image(input, 'product');
    const backdropRaster = input.images.backdrop;
    const background = text(input, 'background');
    const transparent = !backdropRaster && background === 'transparent';
    const colour = BACKGROUNDS[background] ?? BACKGROUNDS.white!;
    const frame = outputDimensions(input.output, product.width, product.height);
    // The product occupies 80% of the frame, centred, over the backdrop (cropped to the frame) or the colour.
    const base = backdropRaster
      ? await toRaster(pipeline(backdropRaster).resize({ width: frame.width, height: frame.height, fit: 'cover' }))
      : solidRaster(frame.width, frame.height, colour);
    const inner = await toRaster(pipeline(product).resize({
      width: Math.round(frame.width * 0.8), height: Math.round(frame.height * 0.8), fit: 'inside',
    }));
    const extras = switches(input, 'extras');
    const left = Math.round((frame.width - inner.width) / 2);
    const top = Math.round((frame.height - inner.height) / 2);
    const layers: Parameters<typeof composite>[1] = [];
    if (extras.has('shadow')) {
      const shadow = `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}"><rect x="${left + 8}" y="${top + 12}" width="${inner.width}" height="${inner.height}" fill="rgba(0,0,0,0.35)"/></svg>`;
      layers.push({ input: Buffer.from(shadow) });
    }
    layers.push({ input: inner.data, raw: { width: inner.width, height: inner.height, channels: 4 }, left, top });
    if (extras.has('border')) {
      const border = `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}"><rect x="4" y="4" width="${frame.width - 8}" height="${frame.height - 8}" fill="none" stroke="#333" stroke-width="4"/></svg>`;
      layers.push({ input: Buffer.from(border) });
    }
    return [await encode(await composite(base, layers), transparent ? 'png' : 'jpeg')];
  },
};

const autoEnhance: WorkflowDefinition = {
  id: 'auto-enhance',
  name: 'Auto Enhance',
  description: 'Stretches the tonal range, reduces noise and sharpens.',
  tags: ['enhance', 'photo'],
  creditCost: 1,
  aspectMode: 'crop',
  results: '1',
  inputSchema: {
    imageFields: [photoField],
    textFields: [],
    switchFields: [{
      id: 'steps', label: 'Steps', description: 'Enhancement steps.', minSelections: 1, maxSelections: 3,
      defaultSelection: ['normalize', 'sharpen'], options: options({ normalize: 'Auto levels', denoise: 'Denoise', sharpen: 'Sharpen' }),
    }],
  },
  async run(input) {
    const steps = switches(input, 'steps');
    const fit = fitPipeline(image(input, 'photo'), input.output, 'crop');
    let fitted = fit.image;
    if (steps.has('denoise')) fitted = fitted.median(3);
    if (steps.has('sharpen')) fitted = fitted.sharpen();
    if (steps.has('normalize')) fitted = fitted.normalise();
    return [await encodePipeline(fitted, 'jpeg', fit.width, fit.height)];
  },
};

/**
 * A plain resize, as an upscaling service returns it: the photo at the requested size (1K: 1024 px on the long edge,
 * 2K: 2048 px), colours unchanged, as a PNG without metadata or ICC profile. Colour and metadata tests use it: any
 * difference between original and result is the pipeline's, not an effect's.
 */
const upscale: WorkflowDefinition = {
  id: 'upscale',
  name: 'Upscale',
  description: 'Resizes the photo to the requested size, nothing else.',
  tags: ['enhance', 'photo'],
  creditCost: 1,
  aspectMode: 'crop',
  results: '1 PNG',
  inputSchema: { imageFields: [photoField], textFields: [], switchFields: [] },
  async run(input) {
    const fit = fitPipeline(image(input, 'photo'), input.output, 'crop');
    return [await encodePipeline(fit.image, 'png', fit.width, fit.height)];
  },
};

export const WORKFLOWS: readonly WorkflowDefinition[] = [
  colorGrade, captionWatermark, filmEffects, beforeAfter, lookVariations, productBackdrop, autoEnhance, upscale,
].map(withSharp);

export function findWorkflow(id: string): WorkflowDefinition | undefined {
  return WORKFLOWS.find((workflow) => workflow.id === id);
}
