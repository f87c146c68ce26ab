import type { DomainHandlers } from '../../../shared/ipc/contract-kit';
import type { batchChannels } from '../../../shared/ipc/channels/batches';
import type { Engine } from './engine';
import { createEstimateRuns, type EstimateRuns } from './estimate-runs';

/** The `batches:*` / `items:*` invoke channels served by one engine (hosts compose this with other domains). */
export function createBatchHandlers(engine: Engine, estimates: EstimateRuns = createEstimateRuns()): DomainHandlers<typeof batchChannels> {
  return {
    'batches:estimate': (spec) => estimates.run((options) => engine.estimate(spec, options)),
    'batches:cancelEstimate': () => ({ cancelled: estimates.cancelAll() }),
    'batches:create': (spec) => engine.createBatch(spec),
    'batches:list': () => engine.listBatches(),
    'batches:items': ({ batchId, offset, limit, states }) => engine.listItems({ batchId, offset, limit, states }),
    'batches:pause': ({ batchId }) => engine.pause(batchId),
    'batches:resume': ({ batchId }) => engine.resume(batchId),
    'batches:cancel': ({ batchId }) => engine.cancel(batchId),
    'batches:retryFailed': ({ batchId }) => engine.retryFailed(batchId),
    'batches:continueTrial': ({ batchId }) => engine.continueTrial(batchId),
    'batches:move': ({ batchId, to }) => engine.moveBatch(batchId, to),
    'batches:setPriority': ({ batchId, priority }) => engine.setPriority(batchId, priority),
    'batches:providerReport': ({ batchId }) => engine.providerReport(batchId),
    'batches:export': (request) => engine.exportAgain(request),
    'items:cancel': ({ itemId }) => engine.cancelItem(itemId),
    'items:resubmit': ({ itemId }) => engine.resubmitItem(itemId),
    'items:reorder': ({ batchId, itemIds, beforeItemId }) => engine.reorder(batchId, itemIds, beforeItemId),
    'items:setVerdict': ({ itemId, verdict }) => engine.setVerdict(itemId, verdict),
    'items:rerun': ({ itemIds, parameters }) => engine.rerun(itemIds, parameters),
  };
}
