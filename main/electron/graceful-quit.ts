import type { Core } from '../core/app/types';
import type { PreventableEvent } from './ports';

export interface QuitApp {
  on(event: 'before-quit', listener: (event: PreventableEvent) => void): unknown;
  quit(): void;
}

export interface GracefulQuitOptions {
  core: Pick<Core, 'busyCount' | 'shutdown'>;
  /** The longest a quit waits for in-flight executions and downloads. */
  timeoutMs?: number;
  pollMs?: number;
  /** Told once when the quit has to wait (e.g. to show "Finishing 3 downloads…"). */
  onWaiting?(busy: number): void;
  /** Runs first on every real quit (the tray stops intercepting window close). */
  onQuitStarted?(): void;
  onError?(error: unknown): void;
  sleep?(ms: number): Promise<void>;
  now?(): number;
}

export interface GracefulQuit {
  readonly state: 'running' | 'draining' | 'done';
  /** Resolves when the drain is complete (tests and the SIGTERM handler wait on it). */
  readonly finished: Promise<void>;
}

/**
 * Quit in two passes. The first `before-quit` is cancelled while in-flight work drains (executions already paid
 * for finish downloading, up to a timeout) and the core shuts down gracefully, leaving the journal consistent;
 * then `app.quit()` is called again and that pass goes through. A second quit request while draining stops the
 * waiting (the user insists) but still shuts the core down cleanly.
 */
export function installGracefulQuit(app: QuitApp, options: GracefulQuitOptions): GracefulQuit {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 200;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? (() => Date.now());
  let state: GracefulQuit['state'] = 'running';
  let insist = false;
  let resolveFinished: () => void = () => undefined;
  const finished = new Promise<void>((r) => (resolveFinished = r));

  const drain = async () => {
    const deadline = now() + timeoutMs;
    let told = false;
    while (!insist && options.core.busyCount() > 0 && now() < deadline) {
      if (!told) {
        told = true;
        options.onWaiting?.(options.core.busyCount());
      }
      await sleep(pollMs);
    }
    const remaining = Math.max(1_000, deadline - now());
    await options.core.shutdown({ graceful: true, timeoutMs: insist ? 1_000 : remaining });
  };

  app.on('before-quit', (event) => {
    if (state === 'done') return;
    event.preventDefault();
    if (state === 'draining') {
      insist = true;
      return;
    }
    state = 'draining';
    options.onQuitStarted?.();
    drain()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        state = 'done';
        resolveFinished();
        app.quit();
      });
  });

  return {
    get state() {
      return state;
    },
    finished,
  };
}
