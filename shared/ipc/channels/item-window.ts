import { z } from 'zod';
import { statesOf } from '../../engine/item-states';
import { ItemViewSchema, type ItemState } from '../../engine/model';
import { invoke } from '../contract-kit';

/** The Queue's status chips: every item, the ones in flight, or one state. */
export const ITEM_FILTERS = ['all', 'active', 'pending', 'saved', 'failed', 'unknown', 'charged-no-result', 'cancelled', 'skipped'] as const;
export const ItemFilterSchema = z.enum(ITEM_FILTERS);
export type ItemFilter = z.infer<typeof ItemFilterSchema>;

/** The states a filter shows (null: all of them). One rule for main's query and the renderer's own checks. */
export function statesOfFilter(filter: ItemFilter): readonly ItemState[] | null {
  if (filter === 'all') return null;
  if (filter === 'active') return statesOf('inFlight');
  return [filter];
}

export function matchesItemFilter(state: ItemState, filter: ItemFilter): boolean {
  const states = statesOfFilter(filter);
  return states === null || states.includes(state);
}

/** The largest page: a screen of rows several times over, never the batch. */
export const ITEM_WINDOW_MAX = 1000;

export const ItemWindowQuerySchema = z.object({
  batchId: z.string().min(1),
  filter: ItemFilterSchema.default('all'),
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().positive().max(ITEM_WINDOW_MAX).default(200),
}).strict();
export type ItemWindowQuery = z.input<typeof ItemWindowQuerySchema>;

export const ItemWindowSchema = z.object({
  batchId: z.string(),
  filter: ItemFilterSchema,
  offset: z.number().int().nonnegative(),
  /** Items that match the filter (the list's length). The counts per state are the batch summary's (`counts`). */
  total: z.number().int().nonnegative(),
  /** In queue order, from `offset`. */
  items: z.array(ItemViewSchema),
});
export type ItemWindow = z.infer<typeof ItemWindowSchema>;

export const itemWindowChannels = {
  /** A window of a batch's items (a filter, an offset, at most 1,000): the renderer never holds the batch. */
  'batches:itemWindow': invoke(ItemWindowQuerySchema, ItemWindowSchema),
} as const;
