import { ipcMain } from 'electron';
import { INVOKE_CHANNELS, contract, type Handlers } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/contract-kit';
import { createInvokeDispatcher, type DispatcherOptions } from '../../shared/ipc/dispatch';
import type { InvokeEventPort, IpcMainPort } from './ports';
import { isAppUrl } from './security';

// The one place in the app that touches ipcMain (ESLint enforces it). Every message is checked for a trusted
// sender before the shared dispatcher parses its arguments with zod; nothing but an envelope goes back.

export interface IpcWrapperOptions extends DispatcherOptions {
  handlers: Handlers;
  /** Is this webContents one of our windows? (ids of live BrowserWindows the app created) */
  isOurWebContents(id: number): boolean;
  onRefused?(channel: string, reason: string): void;
}

export const UNTRUSTED_SENDER: IpcResult<never> = {
  ok: false,
  code: 'untrusted_sender',
  message: 'This message did not come from the Batchroom window and was ignored.',
};

/**
 * A sender is trusted when it is one of our windows and the message comes from its top frame showing the app
 * protocol. A frame that navigated elsewhere, an iframe, or a destroyed frame (senderFrame null) is not.
 */
export function senderRefusal(event: InvokeEventPort, isOurWebContents: (id: number) => boolean): string | null {
  if (!isOurWebContents(event.sender.id)) return 'unknown webContents';
  const frame = event.senderFrame;
  if (!frame) return 'frame gone';
  if (frame.parent !== null) return 'subframe';
  if (!isAppUrl(frame.url)) return 'foreign origin';
  return null;
}

/** Registers one handler per contract invoke channel on `port`; returns a function that removes them. */
export function registerIpcHandlers(port: IpcMainPort, options: IpcWrapperOptions): () => void {
  const dispatch = createInvokeDispatcher(contract, options.handlers, options);
  for (const channel of INVOKE_CHANNELS) {
    port.handle(channel, async (event, rawArgs) => {
      const refusal = senderRefusal(event, options.isOurWebContents);
      if (refusal) {
        options.onRefused?.(channel, refusal);
        return UNTRUSTED_SENDER;
      }
      return dispatch(channel, rawArgs);
    });
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) port.removeHandler(channel);
  };
}

/** The production binding: Electron's ipcMain. */
export function installIpc(options: IpcWrapperOptions): () => void {
  return registerIpcHandlers(ipcMain, options);
}
