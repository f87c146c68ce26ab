// A FIFO limit on simultaneous workflow edits. sharp already runs off the event loop, but more busy libuv threads than
// cores only make every edit slower and crowd the one thread that answers status polls.

export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly slots: () => number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= Math.max(1, this.slots())) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter (active stays the same), or give it back.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
