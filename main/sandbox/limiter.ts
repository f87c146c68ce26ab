import pLimit from 'p-limit';

// A FIFO limit on simultaneous workflow edits. sharp already runs off the event loop, but more busy libuv threads than
// cores only make every edit slower and crowd the one thread that answers status polls. The number of slots follows
// the sandbox's current limits (they can change while it runs), read each time a task is queued.

export class Limiter {
  private readonly limit: ReturnType<typeof pLimit>;

  constructor(private readonly slots: () => number) {
    this.limit = pLimit(this.wanted());
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    const wanted = this.wanted();
    if (this.limit.concurrency !== wanted) this.limit.concurrency = wanted;
    return this.limit(task);
  }

  private wanted(): number {
    return Math.max(1, Math.floor(this.slots()));
  }
}
