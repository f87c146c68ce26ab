import type { z } from 'zod';
import type { ErrorEnvelope } from '../error-envelope';

// The building blocks of the one IPC contract. A channel is `domain:action`; its kind decides how every host
// carries it: `invoke` is request/response with zod-checked arguments and result, `event` is main → renderer.

export interface InvokeChannel<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly kind: 'invoke';
  readonly args: A;
  readonly result: R;
}

export interface EventChannel<P extends z.ZodType = z.ZodType> {
  readonly kind: 'event';
  readonly payload: P;
}

export type AnyChannel = InvokeChannel | EventChannel;
export type ChannelMap = Record<`${string}:${string}`, AnyChannel>;

export function invoke<A extends z.ZodType, R extends z.ZodType>(args: A, result: R): InvokeChannel<A, R> {
  return { kind: 'invoke', args, result };
}

export function event<P extends z.ZodType>(payload: P): EventChannel<P> {
  return { kind: 'event', payload };
}

/**
 * Every invoke answers with this envelope; hosts never let an exception cross the boundary. A failure carries the
 * AppError's code, message, field, hint and whitelisted detail (shared/errors.ts).
 */
export type IpcResult<T> = { ok: true; data: T } | ErrorEnvelope;

export type InvokeNames<C extends ChannelMap> = { [K in keyof C]: C[K] extends InvokeChannel ? K : never }[keyof C] & string;
export type EventNames<C extends ChannelMap> = { [K in keyof C]: C[K] extends EventChannel ? K : never }[keyof C] & string;

export type ArgsOf<C extends ChannelMap, K extends InvokeNames<C>> = C[K] extends InvokeChannel<infer A> ? z.input<A> : never;
export type ParsedArgsOf<C extends ChannelMap, K extends InvokeNames<C>> = C[K] extends InvokeChannel<infer A> ? z.output<A> : never;
export type ResultOf<C extends ChannelMap, K extends InvokeNames<C>> = C[K] extends InvokeChannel<z.ZodType, infer R> ? z.output<R> : never;
export type PayloadOf<C extends ChannelMap, K extends EventNames<C>> = C[K] extends EventChannel<infer P> ? z.output<P> : never;

/** Channels whose every argument is optional may be called with no argument at all. */
type AllOptional<T> = Partial<Record<string, never>> extends T ? true : Record<never, never> extends T ? true : false;

type DomainOf<K> = K extends `${infer D}:${string}` ? D : never;
type ActionOf<K> = K extends `${string}:${infer A}` ? A : never;

/** Main-side implementation of a set of invoke channels: parsed arguments in, plain result out (throw AppError to fail). */
export type DomainHandlers<C extends ChannelMap> = {
  [K in InvokeNames<C>]: (args: ParsedArgsOf<C, K>) => Promise<ResultOf<C, K>> | ResultOf<C, K>;
};

/**
 * The API the renderer sees, derived from the contract: `workflows:list` becomes `api.workflows.list(args)`, and the
 * event `batches:progress` becomes `api.batches.onProgress(listener)` returning an unsubscribe function.
 */
export type BridgeApi<C extends ChannelMap> = {
  [D in DomainOf<keyof C>]: {
    [K in keyof C & `${D}:${string}` as C[K] extends InvokeChannel ? ActionOf<K> : never]: K extends InvokeNames<C>
      ? (...args: AllOptional<ArgsOf<C, K>> extends true ? [args?: ArgsOf<C, K>] : [args: ArgsOf<C, K>]) => Promise<IpcResult<ResultOf<C, K>>>
      : never;
  } & {
    [K in keyof C & `${D}:${string}` as C[K] extends EventChannel ? `on${Capitalize<ActionOf<K>>}` : never]: K extends EventNames<C>
      ? (listener: (payload: PayloadOf<C, K>) => void) => () => void
      : never;
  };
};

/** Splits `domain:action` into its parts (hosts use it to build the bridge object from the contract). */
export function splitChannel(name: string): { domain: string; action: string } {
  const at = name.indexOf(':');
  return { domain: name.slice(0, at), action: name.slice(at + 1) };
}

export function eventMethodName(action: string): string {
  return `on${action.charAt(0).toUpperCase()}${action.slice(1)}`;
}
