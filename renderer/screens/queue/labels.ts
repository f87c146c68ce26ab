import type { BatchState, ItemState } from '../../../shared/engine/model';
import type { StatusFilter } from '../../store/state';

export const ITEM_STATE_LABELS: Record<ItemState, string> = {
  pending: 'Waiting',
  following: 'Already running elsewhere (paid once)',
  encoding: 'Preparing',
  submitting: 'Sending',
  submitted: 'Sent',
  running: 'Editing',
  downloading: 'Saving',
  saved: 'Saved',
  failed: 'Failed',
  cancelled: 'Cancelled',
  unknown: 'May have been charged',
  'charged-no-result': 'Charged, no result',
  skipped: 'Skipped',
};

export const BATCH_STATE_LABELS: Record<BatchState, string> = {
  running: 'Running',
  paused: 'Paused',
  completed: 'Finished',
  cancelled: 'Cancelled',
};

export const FILTER_LABELS: Record<StatusFilter, string> = {
  all: 'All',
  active: 'In progress',
  pending: 'Waiting',
  saved: 'Saved',
  failed: 'Failed',
  unknown: 'Unknown',
  'charged-no-result': 'No result',
  cancelled: 'Cancelled',
  skipped: 'Skipped',
};

export function stateTone(state: ItemState | BatchState): string {
  if (state === 'saved' || state === 'completed') return 'ok';
  if (state === 'failed' || state === 'charged-no-result') return 'danger';
  if (state === 'unknown' || state === 'paused') return 'warning';
  if (state === 'cancelled' || state === 'skipped' || state === 'pending') return 'neutral';
  return 'active';
}
