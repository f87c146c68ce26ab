import { ServiceError } from './errors';

/**
 * Re-wraps a streaming body so that a stall longer than `idleMs` between chunks fails the read with a timeout, and a
 * connection that breaks mid-body fails it with a network error, instead of hanging or leaking undici's wording.
 */
export function withIdleTimeout(response: Response, idleMs: number, label: string, onEnd: () => void = () => undefined): Response {
  const source = response.body;
  if (!source) {
    onEnd();
    return response;
  }
  const reader = source.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      timer = setTimeout(() => {
        finished = true;
        onEnd();
        controller.error(new ServiceError('timeout', `The download stalled (${label}: no data for ${Math.round(idleMs / 1000)} s).`, { endpoint: label }));
        reader.cancel().catch(() => undefined);
      }, idleMs);
      try {
        const { done, value } = await reader.read();
        clearTimeout(timer);
        if (finished) return;
        if (done) {
          finished = true;
          onEnd();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        clearTimeout(timer);
        if (finished) return;
        finished = true;
        onEnd();
        const cancelled = (error as { name?: string } | null)?.name === 'AbortError';
        controller.error(
          cancelled
            ? new ServiceError('cancelled', 'The download was cancelled.', { endpoint: label })
            : new ServiceError('network', `The download broke off (${label}).`, { endpoint: label }, { cause: error }),
        );
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      finished = true;
      onEnd();
      return reader.cancel(reason);
    },
  });
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}
