import { AppError } from '../../../shared/errors';
import type { ChannelMap, DomainHandlers } from '../../../shared/ipc/contract-kit';

/**
 * Handlers for every invoke channel of a domain that is not available in this core (a module that failed to start,
 * or one this host does not carry): each call answers `unavailable` with a sentence saying why, instead of the
 * dispatcher's generic "not available in this host".
 */
export function unavailableHandlers<C extends ChannelMap>(channels: C, reason: string): DomainHandlers<C> {
  const entries = Object.entries(channels)
    .filter(([, spec]) => spec.kind === 'invoke')
    .map(([name]) => [name, () => Promise.reject(new AppError('unavailable', reason))]);
  return Object.fromEntries(entries) as DomainHandlers<C>;
}
