import { describe, expect, it } from 'vitest';
import { RequestGate } from '../../../main/core/engine/limiter';

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
});
