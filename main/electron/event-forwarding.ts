import type { Core } from '../core/app/types';
import type { WebContentsPort } from './ports';

/**
 * Forwards every core event to the live renderers as `webContents.send(channel, payload)`. Only the payload
 * travels; the preload hands it to listeners without the IPC event object.
 */
export function forwardCoreEvents(core: Pick<Core, 'onEvent'>, targets: () => Iterable<WebContentsPort>): () => void {
  return core.onEvent((channel, payload) => {
    for (const contents of targets()) {
      if (!contents.isDestroyed()) contents.send(channel, payload);
    }
  });
}
