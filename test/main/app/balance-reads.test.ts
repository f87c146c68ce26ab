import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../main/core/engine';
import { balanceReader, startBalanceRefresh } from '../../../main/core/app/balance-refresh';
import { createEventBus } from '../../../main/core/app/event-bus';
import { createServiceHandlers } from '../../../main/core/app/service-handlers';
import { silentLogger } from '../../../main/core/log';
import { createFakeClient } from '../engine/fake-client';
import { useEngineTestBed } from '../engine/helpers';
import { until } from '../../helpers/until';
import type { Journal } from '../../../main/core/journal';

// Every balance the app reads feeds the balance-evidence anchor (and the engine's credit guard): the header's
// refresh after spending and `balance:get` go through the engine while it runs. Before, both asked the service
// directly: the anchor kept the balance of the engine's last own read, so a lost submission after them was judged
// against an older balance.

const anchorOf = (journal: Journal): number | null => {
  const json = journal.balanceEvidence();
  return json ? (JSON.parse(json) as { anchor: { balance: number } | null }).anchor?.balance ?? null : null;
};

describe('balance reads of the app', () => {
  const bed = useEngineTestBed();

  async function running() {
    const client = createFakeClient({ balance: 500 });
    const engine = bed.setEngine(createEngine({ journal: bed.journal, client, concurrency: 1 }));
    await engine.start();
    await until(() => anchorOf(bed.journal) === 500, 'the start-up read to anchor the evidence');
    return { client, engine };
  }

  it('balance:get anchors the evidence with what it read', async () => {
    const { client, engine } = await running();
    client.setBalance(420); // a top-up or a spend elsewhere, seen by the next read
    const bus = createEventBus(silentLogger);
    const handlers = createServiceHandlers({ client, status: () => { throw new Error('unused'); }, emit: bus.emit, readBalance: balanceReader(client, () => engine) });
    expect((await handlers['balance:get']({})).apiCredits).toBe(420);
    expect(anchorOf(bed.journal)).toBe(420);
  });

  it('the refresh after spending anchors the evidence with what it read', async () => {
    const { client, engine } = await running();
    client.setBalance(390);
    const bus = createEventBus(silentLogger);
    const seen: number[] = [];
    bus.onEvent((channel, payload) => { if (channel === 'balance:changed') seen.push((payload as { apiCredits: number }).apiCredits); });
    const stop = startBalanceRefresh(bus, balanceReader(client, () => engine), silentLogger, 10);
    try {
      bus.emit('batches:progress', { batches: [{ id: 'b1', creditsSpent: 3 }], items: [] } as never);
      await until(() => seen.length > 0, 'the refresh');
      expect(seen).toEqual([390]);
      expect(anchorOf(bed.journal)).toBe(390);
    } finally {
      stop();
    }
  });

  it('without an engine, reads the service directly', async () => {
    const client = createFakeClient({ balance: 77 });
    expect((await balanceReader(client, () => null)()).apiCredits).toBe(77);
  });
});
