import type pg from 'pg';

export type Queryable = Pick<pg.ClientBase, 'query'>;

/** Runs `work` in one transaction on one pooled connection; `rollback` in the result undoes it but still answers. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: Queryable) => Promise<{ value: T; rollback?: boolean }>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const { value, rollback } = await work(client);
    await client.query(rollback ? 'ROLLBACK' : 'COMMIT');
    return value;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    // A connection that failed mid-transaction is discarded, not handed to the next caller.
    client.release(broken ? true : undefined);
  }
}

export const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
