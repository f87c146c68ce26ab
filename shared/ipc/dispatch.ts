import { fromErrorEnvelope, toErrorEnvelope } from '../error-envelope';
import { isAppError } from '../errors';
import { redactSecrets } from '../redact';
import { formatZodError } from '../validation';
import type { ChannelMap, DomainHandlers, IpcResult } from './contract-kit';

export type InvokeDispatcher = (channel: string, rawArgs: unknown) => Promise<IpcResult<unknown>>;

export interface DispatcherOptions {
  /** Values to scrub from every error message (the API key in use). */
  secrets?: () => readonly string[];
  /** Called with unexpected (non-AppError) failures, already redacted, for the log. */
  onInternalError?: (channel: string, message: string) => void;
}

/**
 * The one place every host (Electron's ipcMain wrapper, the browser host's WebSocket) turns a raw message into a
 * handler call: unknown channels and malformed arguments are refused with `bad_request`, results are checked
 * against the contract, and every failure becomes `{ ok: false, code, message }` with secrets redacted.
 */
export function createInvokeDispatcher<C extends ChannelMap>(
  contract: C,
  handlers: DomainHandlers<C>,
  options: DispatcherOptions = {},
): InvokeDispatcher {
  const scrub = (text: string) => redactSecrets(text, options.secrets?.() ?? []);
  return async (channel, rawArgs) => {
    const map: ChannelMap = contract;
    const spec = Object.prototype.hasOwnProperty.call(map, channel) ? map[channel as keyof ChannelMap] : undefined;
    if (!spec || spec.kind !== 'invoke') {
      return { ok: false, code: 'bad_request', message: `Unknown channel "${scrub(String(channel)).slice(0, 80)}".` };
    }
    const parsed = spec.args.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.map(String).join('.').slice(0, 200);
      return { ok: false, code: 'bad_request', message: scrub(formatZodError(parsed.error, `Invalid arguments for ${channel}`)), ...(field ? { field } : {}) };
    }
    const handler = (handlers as Record<string, (args: unknown) => unknown>)[channel];
    if (!handler) return { ok: false, code: 'unsupported', message: `${channel} is not available in this host.` };
    try {
      const value = await handler(parsed.data);
      const checked = spec.result.safeParse(value);
      if (!checked.success) {
        const message = scrub(formatZodError(checked.error, `${channel} produced an invalid result`));
        options.onInternalError?.(channel, message);
        return { ok: false, code: 'internal', message };
      }
      return { ok: true, data: checked.data };
    } catch (error) {
      if (isAppError(error)) return toErrorEnvelope(error, scrub);
      const message = scrub(error instanceof Error ? error.message : String(error));
      options.onInternalError?.(channel, message);
      return { ok: false, code: 'internal', message: `Something went wrong: ${message}` };
    }
  };
}

/** Unwrap an envelope or throw the AppError it carries (code, field, hint and detail intact). */
export function unwrap<T>(result: IpcResult<T>): T {
  if (result.ok) return result.data;
  throw fromErrorEnvelope(result);
}
