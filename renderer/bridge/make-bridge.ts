import { contract, type Api, type Contract } from '../../shared/ipc/contract';
import { eventMethodName, splitChannel, type IpcResult } from '../../shared/ipc/contract-kit';

export type InvokeTransport = (channel: string, args: unknown) => Promise<IpcResult<unknown>>;
export type SubscribeTransport = (channel: string, listener: (payload: unknown) => void) => () => void;

/**
 * Builds the typed `Api` object from the contract over any transport: tests pass in-memory functions, the bench
 * a scripted event source. Every method exists because the contract names it, so nothing is written twice.
 */
export function makeBridge(invoke: InvokeTransport, subscribe: SubscribeTransport): Api {
  const api: Record<string, Record<string, unknown>> = {};
  for (const name of Object.keys(contract) as (keyof Contract)[]) {
    const { domain, action } = splitChannel(name);
    const target = (api[domain] ??= {});
    if (contract[name].kind === 'invoke') {
      target[action] = (args?: unknown) => invoke(name, args ?? {});
    } else {
      target[eventMethodName(action)] = (listener: (payload: unknown) => void) => subscribe(name, listener);
    }
  }
  return api as unknown as Api;
}
