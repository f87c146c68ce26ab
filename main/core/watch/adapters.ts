import { join } from 'node:path';
import { inGroup, statesOf } from '../../../shared/engine/item-states';
import { ITEM_STATES, type BatchSpec, type ItemState } from '../../../shared/engine/model';
import type { Engine } from '../engine';
import { journalDoneLedger } from '../journal/done-ledger';
import type { Journal } from '../journal/journal';
import { ledgerKey, parametersHash } from '../journal/ledger-key';
import type { OutcomeRecord } from '../journal/outbox';
import { consumeOutcomes, type OutcomeConsumer } from '../engine/outcome-consumer';
import type { Logger } from '../log';
import type { ServiceClient } from '../service/types';
import type { SettingsStore } from '../settings/store';
import { createFileBaselineStore } from './baseline-store';
import { createFileHashCache } from './hash-cache';
import { createHotFolderHandlers } from './handlers';
import { createHotFolderManager, type HotFolderEvents, type HotFolderManager, type HotFolderManagerOptions } from './manager';
import type { Ledger } from '../studio/ledger';
import type { HotFolderConfigStore, HotFolderEngine, HotFolderItemOutcome, HotFolderLedger, LedgerOutcome } from './ports';
import { createFolderRecipes, recipeParameterOverrides, syncFolderRecipe } from '../recipes/recipe-plan';
import { accountIdFor, accountIdOf } from '../service/account-id';

// Maps the manager's ports onto the real engine, journal, service client and settings store.

interface BatchFacts {
  hotFolderId: string | null;
  workflowId: string;
  parametersHash: string;
  /** A batch of mappings (a recipe's fixed images): the field that holds the folder's photo. */
  photoField: string | null;
}

/** The folder's photo of an item: in its field when the item is a mapping with fixed images, else its one source. */
const photoOf = (sources: Record<string, string>, photoField: string | null): string =>
  (photoField ? sources[photoField] : undefined) ?? Object.values(sources)[0] ?? '';
const photoFieldOf = (spec: BatchSpec): string | null => (spec.inputs.mappings.length > 0 ? spec.inputs.imageField ?? null : null);

/** Hot folders read and write the one done ledger every way in shares (see journal/done-ledger.ts). */
export function journalLedger(journal: Journal): HotFolderLedger {
  const done = journalDoneLedger(journal);
  return {
    get: async (key) => {
      const entry = await done.lookup(key);
      return entry ? { outcome: entry.outcome as LedgerOutcome } : null;
    },
    record: (entry) => done.record(entry),
  };
}

export function settingsConfigStore(settings: Pick<SettingsStore, 'get' | 'update'>): HotFolderConfigStore {
  return {
    load: () => settings.get().hotFolders,
    save: (configs) => void settings.update({ hotFolders: configs }),
  };
}

/**
 * The engine as the manager sees it. Outcomes come from the journal's outcome outbox (consumer "hotfolders"): each
 * terminal outcome of each attempt once, in order, resumed from the last one handled after a restart — a failed
 * item retried and then saved is delivered twice (attempt 1 failed, attempt 2 saved) and the folder replaces the
 * first with the second.
 */
export function engineHotFolderPort(engine: Engine, journal: Journal, client: Pick<ServiceClient, 'getWorkflow'>, logger?: Logger): HotFolderEngine {
  const batchFacts = new Map<string, BatchFacts>();
  const reported = new Map<string, ItemState>();
  const listeners = new Set<(outcome: HotFolderItemOutcome) => void | Promise<void>>();
  let consumer: OutcomeConsumer | null = null;
  /** folder + content hash → items of that folder's batches (built from the journal now, then kept current). */
  const byContent = new Map<string, Set<string>>();
  const indexItem = (hotFolderId: string, contentHash: string, itemId: string) => {
    const key = `${hotFolderId}\n${contentHash}`;
    const set = byContent.get(key) ?? new Set<string>();
    set.add(itemId);
    byContent.set(key, set);
  };
  const costs = new Map<string, { cost: number; at: number }>();

  const factsOf = (batchId: string): BatchFacts | null => {
    const cached = batchFacts.get(batchId);
    if (cached) return cached;
    const batch = journal.getBatch(batchId);
    if (!batch) return null;
    const facts = {
      hotFolderId: batch.spec.source.kind === 'hotFolder' ? batch.spec.source.hotFolderId ?? null : null,
      workflowId: batch.spec.workflowId,
      parametersHash: parametersHash(batch.spec.parameters),
      photoField: photoFieldOf(batch.spec),
    };
    batchFacts.set(batchId, facts);
    return facts;
  };

  const deliver = async (record: OutcomeRecord) => {
    reported.set(record.itemId, record.state);
    const facts = factsOf(record.batchId);
    const item = journal.getItem(record.itemId);
    if (!facts?.hotFolderId || !item) return;
    const outcome: HotFolderItemOutcome = {
      batchId: record.batchId,
      sourcePath: photoOf(item.sources, facts.photoField),
      state: record.state as HotFolderItemOutcome['state'],
      outputs: record.outputs,
      reason: record.reason,
      executionId: record.executionId,
      itemId: record.itemId,
      creditsCharged: record.creditsCharged,
      hotFolderId: facts.hotFolderId,
      contentHash: item.contentHash,
      workflowId: facts.workflowId,
      parametersHash: facts.parametersHash,
      attempt: record.attempt,
    };
    for (const listener of listeners) await listener(outcome);
  };

  // Built synchronously at creation, right after reconcileLedger: an item already final now is in the ledger, so
  // it counts as reported; only outcomes recorded from here on wait for the outbox consumer.
  for (const batch of journal.listBatches()) {
    const folderId = factsOf(batch.id)?.hotFolderId;
    if (!folderId) continue;
    for (const item of journal.itemsInStates(batch.id, ITEM_STATES)) {
      if (item.contentHash) indexItem(folderId, item.contentHash, item.id);
      if (inGroup('terminal', item.state)) reported.set(item.id, item.state);
    }
  }

  return {
    async submit(spec, options) {
      const summary = await engine.createBatch(spec, options);
      // Items the engine settled at creation (duplicates, unreadable files) arrive through the outbox like the rest.
      const sent = spec.inputs.mappings.length > 0 ? spec.inputs.mappings.map((m) => photoOf(m, spec.inputs.imageField ?? null)) : spec.inputs.paths;
      const { items } = journal.listItems({ batchId: summary.id, limit: sent.length + 10 });
      const seen = new Set<string>();
      for (const item of items) {
        for (const source of Object.values(item.sources)) seen.add(source);
        if (item.contentHash && spec.source.hotFolderId) indexItem(spec.source.hotFolderId, item.contentHash, item.id);
      }
      for (const path of sent.filter((p) => !seen.has(p))) {
        for (const listener of listeners) {
          await listener({
            batchId: summary.id, sourcePath: path, state: 'skipped', outputs: [], reason: 'not accepted by the engine',
            executionId: null, itemId: null, creditsCharged: 0, hotFolderId: spec.source.hotFolderId ?? null, contentHash: null,
          });
        }
      }
      return { batchId: summary.id };
    },
    async adopt(spec, executions) {
      const summary = await engine.adopt(spec, executions);
      const { items } = journal.listItems({ batchId: summary.id, limit: spec.inputs.paths.length + 10 });
      for (const item of items) if (item.contentHash && spec.source.hotFolderId) indexItem(spec.source.hotFolderId, item.contentHash, item.id);
      return { batchId: summary.id };
    },
    onItemFinal(listener) {
      listeners.add(listener);
      // Consuming starts with the first listener, so no outcome is read (and its cursor advanced) with nobody to hear it.
      consumer ??= consumeOutcomes(journal, 'hotfolders', deliver, {
        onError: (error, o) => logger?.error('hot-folder outcome not handled', { itemId: o?.itemId ?? null, error: String(error) }),
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) { consumer?.stop(); consumer = null; }
      };
    },
    sourceMoved(itemId, from, to) {
      const item = journal.getItem(itemId);
      if (!item) return;
      const sources = Object.fromEntries(Object.entries(item.sources).map(([field, path]) => [field, path === from ? to : path]));
      journal.updateItem(itemId, { sources });
    },
    async creditCost(workflowId) {
      const cached = costs.get(workflowId);
      if (cached && Date.now() - cached.at < 60_000) return cached.cost;
      const cost = (await client.getWorkflow(workflowId)).creditCost;
      costs.set(workflowId, { cost, at: Date.now() });
      return cost;
    },
    isInFlight(contentHash, hotFolderId) {
      // In flight: not final yet (the engine resumed it after a restart), or final but its outcome not yet handed to
      // the manager (the outbox consumer runs a moment later), so the ledger may not know it yet.
      for (const itemId of byContent.get(`${hotFolderId}\n${contentHash}`) ?? []) {
        const state = journal.getItem(itemId)?.state;
        if (!state) continue;
        if (!inGroup('terminal', state)) return true;
        if (inGroup('settled', state) && reported.get(itemId) !== state) return true;
      }
      return false;
    },
  };
}

/**
 * Closes the window between "the engine saved a hot-folder result" and "the ledger recorded it" (a crash right
 * there): every final item of a hot-folder batch missing from the ledger is recorded before folders are scanned,
 * so the restart scan cannot pay for it a second time.
 */
export function reconcileLedger(journal: Journal, logger?: Logger): number {
  let recorded = 0;
  for (const batch of journal.listBatches()) {
    if (batch.spec.source.kind !== 'hotFolder') continue;
    const ph = parametersHash(batch.spec.parameters);
    for (const item of journal.itemsInStates(batch.id, statesOf('terminal').filter((s) => s !== 'skipped'))) {
      if (!item.contentHash) continue;
      const key = ledgerKey(item.contentHash, batch.spec.workflowId, ph);
      if (journal.ledgerHas(key)) continue;
      journal.ledgerRecord({
        key, contentHash: item.contentHash, workflowId: batch.spec.workflowId, parametersHash: ph,
        sourcePath: photoOf(item.sources, photoFieldOf(batch.spec)), outcome: item.state as LedgerOutcome, outputs: item.outputs,
        executionId: item.executionId, itemId: item.id, hotFolderId: batch.spec.source.hotFolderId ?? null,
      });
      recorded++;
    }
  }
  if (recorded > 0) logger?.info('ledger reconciled with the journal', { recorded });
  return recorded;
}

export interface CoreHotFoldersDeps {
  engine: Engine;
  journal: Journal;
  client: Pick<ServiceClient, 'getWorkflow'> & Partial<Pick<ServiceClient, 'accountId' | 'baseUrl'>>;
  stateDir: string;
  /** The settings store in the app; a memory store for `batchroom watch <dir>`. */
  configStore: HotFolderConfigStore;
  logger?: Logger;
  emit?: HotFolderEvents;
  options?: Partial<HotFolderManagerOptions>;
  /** Studio mode: the shared ledger (it writes the local journal's ledger too). Default: the local journal's. */
  ledger?: Ledger;
}

/**
 * Everything createCore needs: the manager (start it with `manager.start()` when the host runs hot folders) and
 * the `hotFolders:*` handlers.
 */
export function createCoreHotFolders(deps: CoreHotFoldersDeps): { manager: HotFolderManager; handlers: ReturnType<typeof createHotFolderHandlers> } {
  reconcileLedger(deps.journal, deps.logger);
  const manager = createHotFolderManager({
    ...deps.options,
    engine: engineHotFolderPort(deps.engine, deps.journal, deps.client, deps.logger),
    ledger: deps.ledger ?? journalLedger(deps.journal),
    configStore: deps.configStore,
    // A folder that runs a recipe: checked before each batch, and its settings taken from it when saved or started.
    recipes: createFolderRecipes({
      stateDir: deps.stateDir, getWorkflow: (id) => deps.client.getWorkflow(id),
      account: () => (deps.client.baseUrl === undefined ? accountIdFor('', null) : accountIdOf({ accountId: deps.client.accountId, baseUrl: deps.client.baseUrl })),
    }),
    syncRecipe: (config) => syncFolderRecipe(config, deps.stateDir),
    recipeOverrides: (config) => recipeParameterOverrides(config, deps.stateDir),
    baseline: createFileBaselineStore(join(deps.stateDir, 'hotfolders')),
    hashCache: createFileHashCache(join(deps.stateDir, 'hotfolders')),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.emit ? { emit: deps.emit } : {}),
  });
  return { manager, handlers: createHotFolderHandlers(manager) };
}
