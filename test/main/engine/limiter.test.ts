import { describe, expect, it } from 'vitest';
import { GateClosed, RequestGate } from '../../../main/core/engine/limiter';

describe('request gate', () => {
  it('holds every request while offline and releases them once a probe gets through', async () => {
    let probes = 0;
    const changes: boolean[] = [];
    const gate = new RequestGate({
      requestsPerSecond: 1000, probeDelayMs: 10,
      probe: async () => { probes++; if (probes < 3) throw new Error('still offline'); },
      onOfflineChange: (offline) => changes.push(offline),
    });
    gate.networkFailed();
    gate.networkFailed();
    expect(gate.offline).toBe(false);
    gate.networkFailed();
    expect(gate.offline).toBe(true);
    let released = false;
    const waiting = gate.acquire().then(() => { released = true; });
    await new Promise((r) => setTimeout(r, 15));
    expect(released).toBe(false);
    await waiting;
    expect(released).toBe(true);
    expect(probes).toBe(3);
    expect(changes).toEqual([true, false]);
    gate.close();
  });

  it('a success resets the failure count', () => {
    const gate = new RequestGate({ requestsPerSecond: 1000, probe: async () => undefined });
    gate.networkFailed();
    gate.networkFailed();
    gate.succeeded();
    gate.networkFailed();
    expect(gate.offline).toBe(false);
    gate.close();
  });

  it('caps the request rate with a token bucket', async () => {
    let now = 0;
    const gate = new RequestGate({ requestsPerSecond: 10, burst: 2, now: () => now, probe: async () => undefined });
    await gate.acquire();
    await gate.acquire();
    let third = false;
    const pending = gate.acquire().then(() => { third = true; });
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBe(false);
    now += 100; // one token refills every 100 ms at 10/s
    await pending;
    expect(third).toBe(true);
    gate.close();
  });

  it('honours a shared back-off', async () => {
    let now = 0;
    const gate = new RequestGate({ requestsPerSecond: 1000, now: () => now, probe: async () => undefined });
    gate.backOff(500);
    let sent = false;
    const pending = gate.acquire().then(() => { sent = true; });
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toBe(false);
    now = 500;
    await pending;
    expect(sent).toBe(true);
    gate.close();
  });

  it('close() refuses every waiter at once: a back-off, the offline latch, a place in the queue, and whoever comes later', async () => {
    let now = 0;
    const gate = new RequestGate({ requestsPerSecond: 1000, now: () => now, probe: async () => undefined });
    gate.backOff(10_000);
    const inBackOff = gate.acquire();
    const queued = gate.acquire();
    const offline = new RequestGate({ requestsPerSecond: 1000, probe: async () => { throw new Error('still offline'); }, probeDelayMs: 10_000 });
    for (let i = 0; i < 3; i++) offline.networkFailed();
    const latched = offline.acquire();
    const startedAt = Date.now();
    gate.close();
    offline.close();
    await expect(inBackOff).rejects.toBeInstanceOf(GateClosed);
    await expect(queued).rejects.toBeInstanceOf(GateClosed);
    await expect(latched).rejects.toBeInstanceOf(GateClosed);
    await expect(gate.acquire()).rejects.toBeInstanceOf(GateClosed);
    expect(Date.now() - startedAt).toBeLessThan(500);
    gate.reopen(); // a stopped engine started again
    now = 10_000;
    await expect(gate.acquire()).resolves.toBeUndefined();
    gate.close();
  });

  it('a waiter whose signal fires leaves at once, and the next in line is served', async () => {
    let now = 0;
    const gate = new RequestGate({ requestsPerSecond: 1000, now: () => now, probe: async () => undefined });
    gate.backOff(500);
    const controller = new AbortController();
    const cut = gate.acquire(controller.signal);
    const next = gate.acquire();
    controller.abort(new Error('cut'));
    await expect(cut).rejects.toThrow('cut');
    now = 500;
    await expect(next).resolves.toBeUndefined();
    gate.close();
  });

  it('a probe that gets through after close() announces nothing (the engine has stopped)', async () => {
    let answer = () => {};
    const changes: boolean[] = [];
    let probing = false;
    const gate = new RequestGate({
      requestsPerSecond: 1000, probeDelayMs: 1,
      probe: () => { probing = true; return new Promise<void>((resolve) => { answer = resolve; }); },
      onOfflineChange: (offline) => changes.push(offline),
    });
    for (let i = 0; i < 3; i++) gate.networkFailed();
    while (!probing) await new Promise((r) => setTimeout(r, 5));
    gate.close();
    answer();
    await new Promise((r) => setTimeout(r, 20));
    expect(changes).toEqual([true]);
  });
});
