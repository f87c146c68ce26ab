import type { Api, EventChannelName, EventPayload, InvokeChannelName } from '../../../shared/ipc/contract';
import type { ArgsOf, IpcResult, ResultOf } from '../../../shared/ipc/contract-kit';
import type { Contract } from '../../../shared/ipc/contract';
import { makeBridge } from '../../../renderer/bridge/make-bridge';
import { isAppError } from '../../../shared/errors';
import { toErrorEnvelope } from '../../../shared/error-envelope';
import type { ItemView } from '../../../shared/engine/model';
import { matchesItemFilter, type ItemFilter } from '../../../shared/ipc/channels/item-window';

/** Thrown by a fake handler to answer `{ ok: false, code, message }`. */
export class FakeFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

type Handler<K extends InvokeChannelName> = (args: ArgsOf<Contract, K>) => ResultOf<Contract, K> | Promise<ResultOf<Contract, K>>;
export type FakeHandlers = { [K in InvokeChannelName]?: Handler<K> };

export interface FakeBridge {
  api: Api;
  /** Every invoke, in order: channel and arguments as the renderer sent them. */
  calls: { channel: string; args: unknown }[];
  callsTo(channel: InvokeChannelName): unknown[];
  emit<K extends EventChannelName>(channel: K, payload: EventPayload<K>): void;
  listenerCount(channel: EventChannelName): number;
  handle<K extends InvokeChannelName>(channel: K, handler: Handler<K>): void;
}

/**
 * batches:itemWindow answered from a test's batches:items fake (its whole list), as main answers it: the filter's
 * items in queue order, `limit` of them from `offset`, and how many match (main's query: test/main/journal/item-window).
 */
function windowFromItems(items: ((args: unknown) => unknown) | undefined): ((args: unknown) => Promise<unknown>) | undefined {
  if (!items) return undefined;
  return async (args) => {
    const { batchId, filter = 'all', offset = 0, limit = 200 } = args as { batchId: string; filter?: ItemFilter; offset?: number; limit?: number };
    const all = (await items({ batchId, offset: 0, limit: 10_000 })) as { items: ItemView[] };
    const matching = all.items.filter((i) => matchesItemFilter(i.state, filter)).sort((a, b) => a.position - b.position);
    return { batchId, filter, offset, total: matching.length, items: matching.slice(offset, offset + limit) };
  };
}

/** An in-memory bridge built from the real contract; unhandled channels answer `unsupported`. */
export function createFakeBridge(initial: FakeHandlers = {}): FakeBridge {
  const handlers: Record<string, ((args: unknown) => unknown) | undefined> = { ...(initial as Record<string, (args: unknown) => unknown>) };
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: { channel: string; args: unknown }[] = [];

  const invoke = async (channel: string, args: unknown): Promise<IpcResult<unknown>> => {
    calls.push({ channel, args });
    const handler = handlers[channel] ?? (channel === 'batches:itemWindow' ? windowFromItems(handlers['batches:items']) : undefined);
    if (!handler) return { ok: false, code: 'unsupported', message: `${channel} is not handled by this fake` };
    try {
      return { ok: true, data: await handler(args) };
    } catch (error) {
      if (error instanceof FakeFailure) return { ok: false, code: error.code, message: error.message };
      // A real AppError goes through the same envelope main builds (field, hint, whitelisted detail).
      if (isAppError(error)) return toErrorEnvelope(error);
      return { ok: false, code: 'internal', message: String(error) };
    }
  };
  const subscribe = (channel: string, listener: (payload: unknown) => void) => {
    const set = listeners.get(channel) ?? new Set();
    listeners.set(channel, set);
    set.add(listener);
    return () => set.delete(listener);
  };

  return {
    api: makeBridge(invoke, subscribe),
    calls,
    callsTo: (channel) => calls.filter((c) => c.channel === channel).map((c) => c.args),
    emit: (channel, payload) => listeners.get(channel)?.forEach((l) => l(payload)),
    listenerCount: (channel) => listeners.get(channel)?.size ?? 0,
    handle: (channel, handler) => {
      handlers[channel] = handler as (args: unknown) => unknown;
    },
  };
}
