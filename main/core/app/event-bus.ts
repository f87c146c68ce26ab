import type { EmitEvent, EventChannelName, EventPayload } from '../../../shared/ipc/contract';
import type { Logger } from '../log';

export type EventListener = <K extends EventChannelName>(channel: K, payload: EventPayload<K>) => void;

export interface EventBus {
  emit: EmitEvent;
  onEvent(listener: EventListener): () => void;
  /** Drops every listener (shutdown): nothing is delivered afterwards. */
  clear(): void;
}

/**
 * The core's one event fan-out. Hosts subscribe once and forward to their renderer(s); a listener that throws is
 * logged and never stops delivery to the others (one broken WebSocket must not starve the CLI's progress bar).
 */
export function createEventBus(logger?: Logger): EventBus {
  const listeners = new Set<EventListener>();
  const emit: EmitEvent = (channel, payload) => {
    for (const listener of [...listeners]) {
      try {
        listener(channel, payload);
      } catch (error) {
        logger?.warn('event listener failed', { channel, error: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  return {
    emit,
    onEvent(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    clear: () => listeners.clear(),
  };
}
