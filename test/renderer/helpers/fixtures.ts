import { ITEM_STATES, type BatchEstimate, type BatchSummary, type ItemState, type ItemView } from '../../../shared/engine/model';
import type { HotFolderState } from '../../../shared/hotfolders/model';
import type { ServiceStatus } from '../../../shared/ipc/channels/service';
import type { Balance, WorkflowDetail } from '../../../shared/service/model';
import type { KeyStatus } from '../../../shared/settings/key-status';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/settings/schema';
import { createFakeBridge, type FakeHandlers } from './fake-bridge';

export const colorGrade: WorkflowDetail = {
  id: 'color-grade', name: 'Color Grade', description: 'Applies one colour look to a photo.', tags: ['color', 'photo'], creditCost: 1,
  inputSchema: {
    imageFields: [{ id: 'photo', label: 'Photo', required: true }],
    textFields: [{ id: 'look', label: 'Look', required: true, presetOptions: [{ id: 'warm', label: 'Warm' }, { id: 'cool', label: 'Cool' }, { id: 'mono', label: 'Mono' }] }],
    switchFields: [],
  },
};

export const caption: WorkflowDetail = {
  id: 'caption-watermark', name: 'Caption & Watermark', description: 'Draws your text into the photo.', tags: ['text', 'branding'], creditCost: 2,
  inputSchema: {
    imageFields: [{ id: 'photo', label: 'Photo', required: true }],
    textFields: [
      { id: 'caption', label: 'Caption', required: true, maxLength: 20 },
      { id: 'position', label: 'Position', required: false, defaultValue: 'bottom', presetOptions: [{ id: 'top', label: 'Top' }, { id: 'bottom', label: 'Bottom' }] },
    ],
    switchFields: [{ id: 'style', label: 'Style', required: false, multiple: true, defaultSelection: ['shadow'], options: [{ id: 'shadow', label: 'Drop shadow' }, { id: 'banner', label: 'Dark banner' }, { id: 'uppercase', label: 'Uppercase' }] }],
  },
};

export const backdrop: WorkflowDetail = {
  id: 'product-backdrop', name: 'Product Backdrop', description: 'Puts a product on a backdrop.', tags: ['product', 'composite'], creditCost: 5,
  inputSchema: {
    imageFields: [{ id: 'product', label: 'Product', required: true }, { id: 'backdrop', label: 'Backdrop', required: true }],
    textFields: [],
    switchFields: [{ id: 'extras', label: 'Extras', required: true, multiple: true, options: [{ id: 'shadow', label: 'Shadow' }, { id: 'reflection', label: 'Reflection' }] }],
  },
};

export const WORKFLOWS = [colorGrade, caption, backdrop];
export const summaryOf = ({ inputSchema: _s, ...summary }: WorkflowDetail) => summary;

export const balance: Balance = { apiCredits: 1200, webCredits: { total: 300, breakdown: [{ label: 'Monthly plan', credits: 250 }, { label: 'Bonus', credits: 50 }] } };
export const sandboxStatus: ServiceStatus = { mode: 'sandbox', serviceUrl: 'http://127.0.0.1:9/api/v1', keyMasked: null, keySource: 'sandbox', message: 'No API key set: using the built-in sandbox.' };
export const settings: Settings = { ...DEFAULT_SETTINGS, outputFolder: '/out' };
export const keyStatus: KeyStatus = {
  mode: 'sandbox', serviceUrl: 'https://api.example/api/v1', hasKey: false, keyMasked: null, source: 'none', sandboxReason: 'no-key',
  keychainAvailable: true, message: 'No API key stored: using the sandbox.', otherServiceKeys: [], awaitingOriginConfirmation: false,
};

export function counts(some: Partial<BatchSummary['counts']>): BatchSummary['counts'] {
  return { ...(Object.fromEntries(ITEM_STATES.map((s) => [s, 0])) as BatchSummary['counts']), ...some };
}

export function batch(overrides: Partial<BatchSummary> = {}): BatchSummary {
  return {
    id: 'b1', workflowId: 'color-grade', workflowName: 'Color Grade', state: 'running', pausedReason: null, pauseCode: null, createdAt: '2026-11-22T10:00:00.000Z',
    total: 3, counts: counts({ pending: 3 }), progress: 0, etaMs: 90_000, creditCost: 3, unitCost: 1, trialRest: null, creditsSpent: 0, budget: null, outputFolder: '/out', ...overrides,
  };
}

export function item(n: number, state: ItemState = 'pending', overrides: Partial<ItemView> = {}): ItemView {
  return {
    id: `i${n}`, batchId: 'b1', position: n, displayName: `IMG_${String(n).padStart(4, '0')}.jpg`, sources: { photo: `/in/IMG_${n}.jpg` },
    state, progress: 0, reason: null, executionId: null, outputs: state === 'saved' ? [`/out/IMG_${n}_color-grade.jpg`] : [],
    creditsCharged: state === 'saved' ? 1 : 0, verdict: null, updatedAt: '2026-11-22T10:00:00.000Z', ...overrides,
  };
}

export function estimate(overrides: Partial<BatchEstimate> = {}): BatchEstimate {
  return {
    workflowId: 'color-grade', itemCount: 2, skipped: [{ path: '/in/notes.txt', reason: 'not an image' }], duplicates: [],
    costPerItem: 1, totalCost: 2, balance: 1200, fitsBalance: true, fitsBudget: true,
    namingPreview: [{ source: '/in/a.jpg', output: 'a_color-grade.jpg' }, { source: '/in/b.jpg', output: 'b_color-grade.jpg' }], namingPreviewMore: 0, alreadyDone: [], resultsGone: [], following: [], rerun: false, outputFolder: '/in/Batchroom', deliverables: [], ...overrides,
  };
}

export function hotFolder(overrides: Partial<HotFolderState['status']> = {}, config: Partial<HotFolderState['config']> = {}): HotFolderState {
  return {
    config: {
      id: 'h1', path: '/watch/incoming', recursive: false, workflowId: 'color-grade', parameters: { texts: { look: 'warm' } }, outputFolder: '/out/hot',
      collisionPolicy: 'suffix', metadataPolicy: 'keep', outputFormat: 'source', jpegQuality: 92, colourPolicy: 'srgb', sidecar: 'none', rawPairs: 'jpeg', studioFolder: null, moveOriginals: false, budget: null, enabled: false, existingFiles: 'dry-run', polling: false, previousSettings: [], priority: 0, job: null, client: null, recipe: null, recipeAcceptedCost: null, ...config,
    },
    status: { id: 'h1', state: 'disarmed', reason: null, processed: 0, queued: 0, failed: 0, lastActivityAt: null, awaitingReview: 0, creditsSpent: 0, studio: 'off', ...overrides },
  };
}

/** A bridge answering like a healthy sandbox with no batches; tests override what they exercise. */
export function standardBridge(extra: FakeHandlers = {}) {
  return createFakeBridge({
    'app:info': () => ({ version: '0.1.0', host: 'browser', platform: 'linux' }),
    'service:status': () => sandboxStatus,
    'settings:get': () => ({ settings, warnings: [] }),
    'settings:update': ({ patch }) => ({ ...settings, ...patch } as Settings),
    'key:status': () => keyStatus,
    'balance:get': () => balance,
    'workflows:list': () => ({ workflows: WORKFLOWS.map(summaryOf) }),
    'workflows:get': ({ id }) => {
      const found = WORKFLOWS.find((w) => w.id === id);
      if (!found) throw new Error('no such workflow');
      return found;
    },
    'batches:list': () => [],
    'hotFolders:list': () => [],
    'files:previewUrl': ({ path }) => ({ url: `blob:preview${path}` }),
    ...extra,
  });
}
