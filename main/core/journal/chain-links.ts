// Chains (issue 32 #3): step n+1 of a chain is sent step n's result by URL (the service downloads it itself: nothing is
// uploaded twice). The URL is not what identifies that result — services sign result URLs for a while and hand out
// fresh ones — so what is kept is the execution and the result's index: the next step asks the execution for its
// current URL, and uploads the saved file only when the service no longer has it. One row per saved intermediate
// file, written when the file is placed; a later save to the same path (a new run) replaces it.

type Row = Record<string, unknown>;
interface Stmt {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
}

/** Where a chain step's saved result came from. */
export interface ChainLink {
  executionId: string;
  /** Its place among the execution's results (0-based). */
  resultIndex: number;
  /**
   * The saved file's content hash when it was placed: a file changed since (edited, replaced) is no longer that
   * result, so it is uploaded as it is now instead of its URL being sent. Null: not known (then never the URL).
   */
  contentHash: string | null;
}

export interface ChainLinkStore {
  recordChainLink(path: string, link: ChainLink): void;
  /** The execution and result a saved intermediate file came from, or null (not saved by a chain step, or before links). */
  chainLinkOf(path: string): ChainLink | null;
}

export function createChainLinks(stmt: (sql: string) => Stmt, now: () => string): ChainLinkStore {
  return {
    recordChainLink: (path, link) => {
      stmt(`INSERT INTO chain_links (path, execution_id, result_index, content_hash, recorded_at) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(path) DO UPDATE SET execution_id = excluded.execution_id, result_index = excluded.result_index,
          content_hash = excluded.content_hash, recorded_at = excluded.recorded_at`)
        .run(path, link.executionId, link.resultIndex, link.contentHash, now());
    },
    chainLinkOf: (path) => {
      const row = stmt(`SELECT execution_id, result_index, content_hash FROM chain_links WHERE path = ?`).get(path) as Row | undefined;
      return row ? { executionId: String(row.execution_id), resultIndex: Number(row.result_index), contentHash: row.content_hash === null ? null : String(row.content_hash) } : null;
    },
  };
}
