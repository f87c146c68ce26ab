import type { ChannelMap } from '../shared/ipc/contract-kit';
import { eventMethodName, splitChannel } from '../shared/ipc/contract-kit';

/** How the bridge reaches main: ipcRenderer in the preload, a fake in tests. */
export interface BridgeTransport {
  invoke(channel: string, args: unknown): Promise<unknown>;
  /** Subscribes `listener` to the event's payloads only; returns the unsubscribe function. */
  subscribe(channel: string, listener: (payload: unknown) => void): () => void;
}

/**
 * Builds `window.batchroom` from the contract: `domain:action` invokes become `api.domain.action(args)` and events
 * become `api.domain.onAction(listener) → unsubscribe`. Nothing else is reachable: no generic send, no channel
 * names chosen by the page.
 */
export function buildBridgeApi(contract: ChannelMap, transport: BridgeTransport): Record<string, Record<string, unknown>> {
  const api: Record<string, Record<string, unknown>> = {};
  for (const [channel, spec] of Object.entries(contract)) {
    const { domain, action } = splitChannel(channel);
    const methods = (api[domain] ??= {});
    if (spec.kind === 'invoke') {
      methods[action] = (args?: unknown) => transport.invoke(channel, args ?? {});
    } else {
      methods[eventMethodName(action)] = (listener: unknown) => {
        if (typeof listener !== 'function') throw new TypeError(`${channel}: the listener must be a function`);
        return transport.subscribe(channel, (payload) => (listener as (p: unknown) => void)(payload));
      };
    }
  }
  for (const methods of Object.values(api)) Object.freeze(methods);
  return Object.freeze(api);
}
