// The engine's monotonic-enough clock for scheduling (poll delays, balance age, learned durations). Its own module
// so that the parts the runner core wires together (credit guard, follower, downloads) depend on it, not on the core.
export const nowMs = (): number => Date.now();
