import type { BatchState, ItemState } from '../../../shared/engine/model';
import type { KeyOf } from '../../../shared/i18n';
import type { StatusFilter } from '../../store/state';

// The catalog key (queue namespace) of each state's word: the words themselves are in shared/i18n/locales/*/queue.json.

export const ITEM_STATE_KEYS: Record<ItemState, KeyOf<'queue'>> = {
  pending: 'ItemState.pending',
  following: 'ItemState.following',
  encoding: 'ItemState.encoding',
  submitting: 'ItemState.submitting',
  submitted: 'ItemState.submitted',
  running: 'ItemState.running',
  downloading: 'ItemState.downloading',
  saved: 'ItemState.saved',
  failed: 'ItemState.failed',
  cancelled: 'ItemState.cancelled',
  unknown: 'ItemState.unknown',
  'charged-no-result': 'ItemState.chargedNoResult',
  skipped: 'ItemState.skipped',
};

export const FILTER_KEYS: Record<StatusFilter, KeyOf<'queue'>> = {
  all: 'Filter.all',
  active: 'Filter.active',
  pending: 'Filter.pending',
  saved: 'Filter.saved',
  failed: 'Filter.failed',
  unknown: 'Filter.unknown',
  'charged-no-result': 'Filter.chargedNoResult',
  cancelled: 'Filter.cancelled',
  skipped: 'Filter.skipped',
};

export function stateTone(state: ItemState | BatchState): string {
  if (state === 'saved' || state === 'completed') return 'ok';
  if (state === 'failed' || state === 'charged-no-result') return 'danger';
  if (state === 'unknown' || state === 'paused') return 'warning';
  if (state === 'cancelled' || state === 'skipped' || state === 'pending') return 'neutral';
  return 'active';
}
