import { useRef } from 'react';

/**
 * Which DOM slot shows which row of a window: a row that stays on screen keeps its slot, and a row scrolling in
 * below takes a slot a row scrolling out left. Slots are React keys, so scrolling down hands an existing row's
 * elements new props instead of unmounting one row and building another (a fast flick brings ~10 rows a frame at
 * 48 px). A row scrolling in ABOVE gets a new slot (it mounts): React keeps keyed children in order by moving every
 * child placed after one that moved back, so a recycled slot at the top would take out and put back every row still
 * on screen — blurring a focused button in one of them at every row scrolled up. Pure: the same previous assignment
 * and window give the same answer (React may render twice).
 */
export function assignSlots(previous: ReadonlyMap<number, number>, first: number, last: number): Map<number, number> {
  const next = new Map<number, number>();
  const freed: number[] = [];
  let previousFirst = Number.POSITIVE_INFINITY;
  let newest = -1;
  for (const [index, slot] of [...previous].sort((a, b) => a[0] - b[0])) {
    previousFirst = Math.min(previousFirst, index);
    newest = Math.max(newest, slot);
    if (index >= first && index <= last) next.set(index, slot);
    else freed.push(slot); // in row order: the rows that left at the top first
  }
  for (let index = first; index <= last; index++) {
    if (next.has(index)) continue;
    const reuse = index > previousFirst ? freed.shift() : undefined;
    next.set(index, reuse ?? ++newest);
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
