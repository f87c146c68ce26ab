import type { ItemState } from '../../../shared/engine/model';

// Items that are saved, skipped or cancelled are the bulk of a big journal and never move again by themselves (a
// cancelled one only when its batch is resumed). The journal's indexes over items that are still moving leave them
// out (migration 14: items_open, items_by_claim), so a finished item costs no index space and no query walks past
// it; migration 15's items_settled holds the finished ones alone (the Queue's "Saved" or "Skipped" pages). SQLite
// uses such a partial index only when the query carries the index's own WHERE term word for word: every query that
// asks for moving items only adds SETTLED_SQL, and one for finished items only SETTLED_ONLY_SQL (`termFor`).

export const SETTLED_STATES: readonly ItemState[] = ['saved', 'skipped', 'cancelled'];

/** The partial indexes' term, exactly as migration 14 wrote it. */
export const SETTLED_SQL = `state NOT IN ('saved', 'skipped', 'cancelled')`;

/** ` AND <SETTLED_SQL>` when none of `states` is settled (the partial indexes then hold every row asked for), else ''. */
export function movingOnly(states: readonly ItemState[]): string {
  return states.some((s) => SETTLED_STATES.includes(s)) ? '' : ` AND ${SETTLED_SQL}`;
}

/** items_settled's term, exactly as migration 15 wrote it. */
export const SETTLED_ONLY_SQL = `state IN ('saved', 'skipped', 'cancelled')`;

/**
 * The partial index term a query over `states` may carry: items_open's when none is settled, items_settled's when all
 * are; '' for a mix (no one partial index holds them all).
 */
export function termFor(states: readonly ItemState[]): string {
  if (states.length > 0 && states.every((s) => SETTLED_STATES.includes(s))) return ` AND ${SETTLED_ONLY_SQL}`;
  return movingOnly(states);
}
