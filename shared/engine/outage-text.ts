import { SERVICE_UNREACHABLE, type ServiceUnreachable } from './model';

// One wording for "the service stopped answering", shared by the app's banners, the tray tooltip and the CLI.

/** "Can't reach the service — retrying (next try in 8 s)"; "retrying now" while a probe is out. */
export function unreachableMessage(unreachable: Pick<ServiceUnreachable, 'nextTryAt'>, nowMs: number): string {
  const next = unreachable.nextTryAt;
  const seconds = next === null ? 0 : Math.ceil((next - nowMs) / 1000);
  return `Can't reach the service — ${seconds > 0 ? `retrying (next try in ${seconds} s)` : 'retrying now'}`;
}

/** What a batch's pausedReason means to a person (the engine's codes become sentences; free text stays as it is). */
export function pausedReasonText(pausedReason: string | null, unreachable: ServiceUnreachable | null | undefined, nowMs: number): string | null {
  if (pausedReason === SERVICE_UNREACHABLE) {
    return unreachable ? unreachableMessage(unreachable, nowMs) : "Can't reach the service — retrying";
  }
  return pausedReason;
}
