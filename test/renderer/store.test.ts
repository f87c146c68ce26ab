import { describe, expect, it, vi } from 'vitest';
import { connectStore, createAppStore } from '../../renderer/store/app-store';
import { filterWorkflows } from '../../renderer/store/catalog-slice';
import { listKey, MAX_PAGES, PAGE_SIZE } from '../../renderer/store/item-lists';
import { selectLowBalance } from '../../renderer/store/service-slice';
import { FakeFailure } from './helpers/fake-bridge';
import { batch, caption, estimate, item, settings, standardBridge, summaryOf, WORKFLOWS } from './helpers/fixtures';

async function readyStore(fake = standardBridge()) {
  const store = createAppStore(fake.api);
  await store.getState().loadService();
  await store.getState().loadWorkflows();
  return { store, fake, s: () => store.getState() };
}

describe('catalog and form', () => {
  it('filters workflows by tag and by search text over name, description and tags', () => {
    const list = WORKFLOWS.map(summaryOf);
    expect(filterWorkflows(list, 'color', '').map((w) => w.id)).toEqual(['color-grade']);
    expect(filterWorkflows(list, null, 'TEXT').map((w) => w.id)).toEqual(['caption-watermark']);
    expect(filterWorkflows(list, 'product', 'grade')).toEqual([]);
  });

  it('opens a workflow with a form started from the schema defaults', async () => {
    const { s } = await readyStore();
    await s().selectWorkflow('caption-watermark');
    expect(s().form).toMatchObject({ workflowId: 'caption-watermark', texts: { caption: '', position: 'bottom' }, switches: { style: ['shadow'] }, batchField: 'photo' });
  });

  it('keeps the form when the detail loads late for a workflow the user already left', async () => {
    const fake = standardBridge();
    let release: () => void = () => {};
    fake.handle('workflows:get', ({ id }) => new Promise((ok) => { release = () => ok(WORKFLOWS.find((w) => w.id === id)!); }));
    const { s } = await readyStore(fake);
    const slow = s().selectWorkflow('caption-watermark');
    fake.handle('workflows:get', () => WORKFLOWS[0]!);
    await s().selectWorkflow('color-grade');
    release();
    await slow;
    expect(s().form?.workflowId).toBe('color-grade');
  });
});

describe('estimate and start', () => {
  it('refuses to estimate while the form is invalid, and reveals the inline errors', async () => {
    const { s, fake } = await readyStore();
    await s().selectWorkflow('caption-watermark');
    s().addPaths(['/in']);
    await s().requestEstimate();
    expect(s().form?.showErrors).toBe(true);
    // The first invalid field by name, and which one, so the form can scroll to it and focus it.
    expect(s().draftError).toMatchObject({ title: 'Caption is required.', field: 'texts.caption' });
    expect(fake.callsTo('batches:estimate')).toHaveLength(0);
  });

  it('asks for photos before pricing a batch', async () => {
    const { s } = await readyStore();
    await s().selectWorkflow('color-grade');
    await s().requestEstimate();
    expect(s().draftError?.title).toMatch(/Add photos first/);
  });

  it('sends the batch spec built from the form, draft and settings', async () => {
    const fake = standardBridge({ 'batches:estimate': () => estimate() });
    const { s } = await readyStore(fake);
    await s().selectWorkflow('caption-watermark');
    s().setText('caption', 'Hello');
    s().toggleSwitch(caption.inputSchema.switchFields[0]!, 'banner');
    s().setAspectRatio('16:9');
    s().addPaths(['/in', '/in', '/more/a.jpg']);
    s().setDraft({ recursive: false });
    await s().requestEstimate();
    expect(fake.callsTo('batches:estimate')[0]).toEqual({
      workflowId: 'caption-watermark',
      parameters: { texts: { caption: 'Hello', position: 'bottom' }, switchSelections: { style: ['shadow', 'banner'] }, globalOverrides: { aspectRatio: '16:9' } },
      inputs: { paths: ['/in', '/more/a.jpg'], recursive: false, imageField: 'photo', rawPairs: 'jpeg' },
      output: { outputFolder: '/out', namingTemplate: settings.namingTemplate, collisionPolicy: 'suffix', sidecar: 'none', metadata: 'keep', format: 'source', quality: 92, colour: 'srgb' },
      encode: { uploadSizePolicy: 'fit', stripMetadata: true },
      budget: null,
      rerun: false,
      source: { kind: 'manual' },
    });
    expect(s().estimate?.itemCount).toBe(2);
  });

  it('maps each photo with the fixed images of a multi-image workflow', async () => {
    const fake = standardBridge({ 'batches:estimate': () => estimate() });
    const { s } = await readyStore(fake);
    await s().selectWorkflow('product-backdrop');
    s().toggleSwitch({ id: 'extras', label: 'Extras', required: true, multiple: true, options: [{ id: 'shadow', label: 'Shadow' }] }, 'shadow');
    s().setFixedImage('backdrop', '/bg/studio.jpg');
    s().addPaths(['/in/a.jpg', '/in/b.jpg']);
    await s().requestEstimate();
    const spec = fake.callsTo('batches:estimate')[0] as { inputs: unknown };
    expect(spec.inputs).toEqual({
      paths: [], recursive: true,
      mappings: [{ product: '/in/a.jpg', backdrop: '/bg/studio.jpg' }, { product: '/in/b.jpg', backdrop: '/bg/studio.jpg' }],
    });
  });

  it('keeps the summary open with the plain-words reason when credits are insufficient', async () => {
    const fake = standardBridge({
      'batches:estimate': () => estimate(),
      'batches:create': () => { throw new FakeFailure('insufficient_credits', 'needs 2, has 1'); },
    });
    const { s } = await readyStore(fake);
    await s().selectWorkflow('color-grade');
    s().addPaths(['/in/a.jpg']);
    await s().requestEstimate();
    expect(await s().startBatch()).toBe(false);
    expect(s().draftError).toEqual({ code: 'insufficient_credits', title: expect.stringMatching(/not enough credits/i), detail: 'insufficient_credits: needs 2, has 1' });
    expect(s().view).toBe('workflows');
  });

  it('starts the batch and switches to its queue', async () => {
    const fake = standardBridge({ 'batches:estimate': () => estimate(), 'batches:create': () => batch({ id: 'b9' }), 'batches:items': () => ({ total: 0, items: [] }) });
    const { s } = await readyStore(fake);
    await s().selectWorkflow('color-grade');
    s().addPaths(['/in/a.jpg']);
    await s().requestEstimate();
    expect(await s().startBatch()).toBe(true);
    expect(s().view).toBe('queue');
    expect(s().selectedBatchId).toBe('b9');
    expect(s().draft.paths).toEqual([]);
  });
});

describe('queue', () => {
  it('holds a window of a 100,000-item batch, never the batch: pages asked for as the list needs them, older ones dropped', async () => {
    const all = Array.from({ length: 100_000 }, (_, n) => item(n, n % 50 === 7 ? 'failed' : 'pending'));
    const fake = standardBridge({
      'batches:list': () => [batch({ total: 100_000 })],
      'batches:itemWindow': ({ batchId, filter = 'all', offset = 0, limit = 200 }) => {
        const matching = filter === 'all' ? all : all.filter((i) => i.state === filter);
        return { batchId, filter, offset, total: matching.length, items: matching.slice(offset, offset + limit) };
      },
    });
    const { s } = await readyStore(fake);
    await s().loadBatches();
    await vi.waitFor(() => expect(s().itemLists[listKey('b1', 'all')]?.loaded).toBe(true));
    for (let page = 0; page < 500; page += 25) await s().loadItemPage('b1', 'all', page);
    await s().loadItemPage('b1', 'all', 499);
    const list = s().itemLists[listKey('b1', 'all')]!;
    expect(list.total).toBe(100_000);
    expect(Object.keys(list.pages).length).toBe(MAX_PAGES);
    expect(list.pages[499]?.at(-1)?.id).toBe('i99999');
    expect(Object.values(list.pages).flat().length).toBeLessThanOrEqual(MAX_PAGES * PAGE_SIZE);
    expect((fake.callsTo('batches:itemWindow') as { limit: number }[]).every((c) => c.limit <= PAGE_SIZE)).toBe(true);

    s().setStatusFilter('failed');
    await vi.waitFor(() => expect(s().itemLists[listKey('b1', 'failed')]?.loaded).toBe(true));
    expect(s().itemLists[listKey('b1', 'failed')]?.total).toBe(2000);
    expect(s().itemLists[listKey('b1', 'all')]).toBeUndefined();
    expect(fake.callsTo('batches:itemWindow').at(-1)).toEqual({ batchId: 'b1', filter: 'failed', offset: 0, limit: PAGE_SIZE });
  });

  it('patches a progress event into the loaded page by id: only that page is a new array, the other rows stay the same objects', async () => {
    const all = Array.from({ length: 1000 }, (_, n) => item(n));
    const fake = standardBridge({
      'batches:list': () => [batch({ total: 1000 })],
      'batches:items': ({ offset = 0, limit = 500 }) => ({ total: all.length, items: all.slice(offset, offset + limit) }),
    });
    const { s } = await readyStore(fake);
    await s().loadBatches();
    await s().loadItemPage('b1', 'all', 0);
    await s().loadItemPage('b1', 'all', 1);
    const before = s().itemLists[listKey('b1', 'all')]!;
    s().applyProgress({ batches: [batch({ progress: 0.5, total: 1000 })], items: [item(42, 'running', { progress: 40 }), item(999, 'saved')] });
    const after = s().itemLists[listKey('b1', 'all')]!;
    expect(after.pages[0]).not.toBe(before.pages[0]);
    expect(after.pages[0]![42]).toMatchObject({ state: 'running', progress: 40 });
    expect(after.pages[0]![41]).toBe(before.pages[0]![41]);
    expect(after.pages[1]).toBe(before.pages[1]);
    expect(after.pages[4]).toBeUndefined();
    expect(s().batches.b1?.progress).toBe(0.5);
  });

  it('ignores item updates for batches whose items were never opened', async () => {
    const { s } = await readyStore();
    s().applyProgress({ batches: [batch({ id: 'b2' })], items: [item(1, 'saved', { batchId: 'b2' })] });
    expect(s().batches.b2).toBeDefined();
    expect(Object.values(s().itemLists).some((l) => l.batchId === 'b2')).toBe(false);
  });

  it('sends pause, resume, cancel, retry, reorder and resubmit with the acknowledgement', async () => {
    const fake = standardBridge({
      'batches:pause': () => batch({ state: 'paused', pausedReason: 'Paused by you' }),
      'batches:resume': () => batch(),
      'batches:cancel': () => batch({ state: 'cancelled' }),
      'batches:retryFailed': () => batch(),
      'batches:items': () => ({ total: 1, items: [item(0, 'unknown')] }),
      'items:resubmit': () => item(0, 'pending'),
      'items:reorder': () => ({ moved: 1 }),
    });
    const { s } = await readyStore(fake);
    await s().pauseBatch('b1');
    expect(s().batches.b1?.state).toBe('paused');
    await s().resumeBatch('b1');
    await s().retryFailed('b1');
    await s().moveToFront('b1', ['i0']);
    await s().resubmitItem('i0', true);
    await s().cancelAll();
    expect(fake.callsTo('items:resubmit')).toEqual([{ itemId: 'i0', acknowledgeMayChargeTwice: true }]);
    expect(fake.callsTo('items:reorder')).toEqual([{ batchId: 'b1', itemIds: ['i0'], beforeItemId: null }]);
    expect(fake.callsTo('batches:cancel')).toEqual([{ batchId: 'b1' }]);
    expect(s().batches.b1?.state).toBe('cancelled');
  });

  it('turns a refused control into a notice in plain words', async () => {
    const fake = standardBridge({ 'batches:pause': () => { throw new FakeFailure('conflict', 'batch already completed'); } });
    const { s } = await readyStore(fake);
    await s().pauseBatch('b1');
    expect(s().notices.at(-1)).toMatchObject({ level: 'error', message: expect.stringMatching(/changed in the meantime/), detail: 'conflict: batch already completed' });
  });
});

describe('review', () => {
  it('steps through saved results, records verdicts, and re-runs the rejected ones', async () => {
    const fake = standardBridge({
      'batches:items': () => ({ total: 4, items: [item(0, 'saved'), item(1, 'failed'), item(2, 'saved'), item(3, 'saved')] }),
      'items:setVerdict': ({ itemId, verdict }) => item(Number(itemId.slice(1)), 'saved', { verdict }),
      'items:rerun': () => batch({ id: 'b2' }),
    });
    const { s } = await readyStore(fake);
    s().openReview('b1');
    await vi.waitFor(() => expect(s().reviewItemId).toBe('i0'));
    s().stepReview(1);
    await vi.waitFor(() => expect(s().reviewItemId).toBe('i2'));
    s().stepReview(5);
    await vi.waitFor(() => expect(s().reviewItemId).toBe('i3'));
    await s().setVerdict('i3', 'rejected');
    expect(s().itemLists[listKey('b1', 'saved')]?.pages[0]?.[2]?.verdict).toBe('rejected');
    expect(await s().rerunRejected('b1', { texts: { look: 'cool' } })).toBe(true);
    expect(fake.callsTo('items:rerun')).toEqual([{ itemIds: ['i3'], parameters: { texts: { look: 'cool' } } }]);
    expect(s().selectedBatchId).toBe('b2');
  });

  it('clamps the slider and caches preview URLs', async () => {
    const { s, fake } = await readyStore();
    s().setSliderPosition(140);
    expect(s().sliderPosition).toBe(100);
    await s().loadPreview('/out/a.jpg');
    await s().loadPreview('/out/a.jpg');
    expect(s().previewUrls['/out/a.jpg']).toBe('blob:preview/out/a.jpg');
    expect(fake.callsTo('files:previewUrl')).toHaveLength(1);
  });
});

describe('service, settings and key', () => {
  it('warns about a low balance only below the configured threshold', () => {
    const b = (apiCredits: number) => ({ apiCredits, webCredits: { total: 0, breakdown: [] } });
    expect(selectLowBalance({ balance: b(10), settings })).toBe(true);
    expect(selectLowBalance({ balance: b(100), settings })).toBe(false);
    expect(selectLowBalance({ balance: b(10), settings: { ...settings, lowBalanceWarning: 0 } })).toBe(false);
  });

  it('shows the service mode and balance as they arrive, while settings and the key are still on their way', async () => {
    let release: () => void = () => {};
    const slow = new Promise<void>((ok) => (release = ok));
    const fake = standardBridge({ 'settings:get': async () => { await slow; return { settings, warnings: [] }; } });
    const store = createAppStore(fake.api);
    const loading = store.getState().loadService();
    await expect.poll(() => store.getState().status?.mode).toBe('sandbox');
    await expect.poll(() => store.getState().balance?.apiCredits).toBeTypeOf('number');
    expect(store.getState().settings).toBeNull();
    release();
    await loading;
    expect(store.getState().settings).toEqual(settings);
  });

  it('keeps the key out of the store: only main’s masked status comes back', async () => {
    const fake = standardBridge({ 'key:set': () => ({ mode: 'live', serviceUrl: 'https://api.example/api/v1', hasKey: true, keyMasked: 'sk_live_…wxyz', source: 'keychain', sandboxReason: null, keychainAvailable: true, message: 'Using the key from the keychain.', otherServiceKeys: [], awaitingOriginConfirmation: false }) });
    const { s, store } = await readyStore(fake);
    expect(await s().setKey('sk_live_secret123wxyz')).toBe(true);
    expect(JSON.stringify(store.getState())).not.toContain('secret123');
    expect(s().keyStatus?.keyMasked).toBe('sk_live_…wxyz');
  });

  it('reports a rejected key without keeping it', async () => {
    const fake = standardBridge({ 'key:set': () => { throw new FakeFailure('unauthorized', 'the service refused the key'); } });
    const { s } = await readyStore(fake);
    expect(await s().setKey('sk_live_wrongwrongwrong')).toBe(false);
    expect(s().keyCheck).toMatchObject({ state: 'failed', error: { code: 'unauthorized' } });
  });

  it('applies settings main accepted and reports what it refused', async () => {
    const fake = standardBridge();
    const { s } = await readyStore(fake);
    expect(await s().updateSettings({ concurrency: 8 })).toBe(true);
    expect(s().settings?.concurrency).toBe(8);
    fake.handle('settings:update', () => { throw new FakeFailure('bad_request', 'concurrency: too big'); });
    expect(await s().updateSettings({ concurrency: 99 })).toBe(false);
    expect(s().settings?.concurrency).toBe(8);
  });
});

describe('hot folders', () => {
  it('validates locally before saving and names the fields', async () => {
    const { s, fake } = await readyStore();
    const errors = await s().saveHotFolder({ id: 'h1', path: '', workflowId: '', outputFolder: '' });
    expect(errors).toMatchObject({ path: 'choose a folder to watch', workflowId: 'choose a workflow', outputFolder: 'choose an output folder' });
    expect(fake.callsTo('hotFolders:save')).toHaveLength(0);
  });

  it('keeps the newest activity first and bounded', async () => {
    const { s } = await readyStore();
    for (let n = 0; n < 250; n++) s().applyActivity({ folderId: 'h1', kind: 'saved', path: `/w/${n}.jpg`, message: 'saved', at: '2026-11-22T10:00:00.000Z' });
    expect(s().activity).toHaveLength(200);
    expect(s().activity[0]?.path).toBe('/w/249.jpg');
  });
});

describe('events from main', () => {
  it('shows the view main asks for (menu: Settings…, view shortcuts) until unsubscribed', async () => {
    const { store, fake, s } = await readyStore();
    const disconnect = connectStore(store, fake.api);
    fake.emit('app:navigate', { view: 'settings' });
    expect(s().view).toBe('settings');
    disconnect();
    fake.emit('app:navigate', { view: 'queue' });
    expect(s().view).toBe('settings');
  });
});
