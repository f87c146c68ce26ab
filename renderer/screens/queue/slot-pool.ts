import { useRef } from 'react';

/**
 * Which DOM slot shows which row of a window: a row that stays on screen keeps its slot, and a row scrolling in takes
 * a slot a row scrolling out left. Slots are React keys, so scrolling hands an existing row's elements new props
 * instead of unmounting one row and building another (a fast flick brings ~10 rows a frame at 48 px). Pure: the
 * same previous assignment and window give the same answer (React may render twice).
 */
export function assignSlots(previous: ReadonlyMap<number, number>, first: number, last: number): Map<number, number> {
  const next = new Map<number, number>();
  const used = new Set<number>();
  for (let index = first; index <= last; index++) {
    const slot = previous.get(index);
    if (slot !== undefined) {
      next.set(index, slot);
      used.add(slot);
    }
  }
  let free = 0;
  for (let index = first; index <= last; index++) {
    if (next.has(index)) continue;
    while (used.has(free)) free++;
    next.set(index, free);
    used.add(free);
  }
  return next;
}

/** The window's rows in order, each with its slot (the key to render it under). */
export function useSlotPool(first: number, last: number): { index: number; slot: number }[] {
  const assigned = useRef<Map<number, number>>(new Map());
  assigned.current = assignSlots(assigned.current, first, last);
  const rows: { index: number; slot: number }[] = [];
  for (let index = first; index <= last; index++) rows.push({ index, slot: assigned.current.get(index)! });
  return rows;
}
