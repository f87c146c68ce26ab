// The submit queue's order across batches (issue 32 #5). Each batch has a priority (higher submits first; a new
// batch takes its spec's, which hot folders and `--priority` set) and a queue_order (lower first; a new batch goes to
// the back). The engine submits by (priority desc, queue_order asc, item position): batchIdsInState reads that order.
//
// "Move to front" puts a batch before every other open batch of any priority: it takes the highest priority among
// the other open batches (when that is above its own) and the lowest queue_order. "Move to back" is the mirror. So a
// move always does what it says, and the priority shown afterwards tells why; a batch arriving later with a higher
// priority (a priority hot folder) still goes before it, as its priority says.

type Row = Record<string, unknown>;
interface Stmt {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
}

/** Batches whose items may still be submitted: the ones a move is relative to. */
const OPEN = `state IN ('running', 'paused')`;

export type QueueEnd = 'front' | 'back';

export interface BatchOrderStore {
  /** Moves a batch before (front) or after (back) every other open batch; false when there is no such batch. */
  moveBatch(id: string, to: QueueEnd): boolean;
  setBatchPriority(id: string, priority: number): void;
}

export function createBatchOrder(stmt: (sql: string) => Stmt, transaction: <T>(work: () => T) => T, now: () => string): BatchOrderStore {
  return {
    moveBatch: (id, to) => transaction(() => {
      const own = stmt(`SELECT priority FROM batches WHERE id = ?`).get(id) as Row | undefined;
      if (!own) return false;
      const others = stmt(`SELECT MAX(priority) AS hi, MIN(priority) AS lo, COUNT(*) AS n FROM batches WHERE ${OPEN} AND id <> ?`).get(id) as Row;
      if (Number(others.n) === 0) return false;
      const ends = stmt(`SELECT MIN(queue_order) AS first, MAX(queue_order) AS last FROM batches`).get() as Row;
      const priority = to === 'front' ? Math.max(Number(own.priority), Number(others.hi)) : Math.min(Number(own.priority), Number(others.lo));
      const order = to === 'front' ? Number(ends.first) - 1 : Number(ends.last) + 1;
      stmt(`UPDATE batches SET priority = ?, queue_order = ?, updated_at = ? WHERE id = ?`).run(priority, order, now(), id);
      return true;
    }),
    setBatchPriority: (id, priority) => {
      stmt(`UPDATE batches SET priority = ?, updated_at = ? WHERE id = ?`).run(priority, now(), id);
    },
  };
}
