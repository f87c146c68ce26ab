import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../../main/sandbox/faults';
import { outputDimensions } from '../../../main/sandbox/imaging/output-size';
import { Limiter } from '../../../main/sandbox/limiter';
import { DEFAULT_FAULTS, faultsFromEnv, mergeFaults, seedFromEnv } from '../../../main/sandbox/options';
import { canonicalMime, sniffImageType } from '../../../main/sandbox/sniff';

describe('sniffImageType', () => {
  it.each([
    [[0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png'],
    [[...Buffer.from('GIF89a')], 'image/gif'],
    [[...Buffer.from('RIFF\0\0\0\0WEBP')], 'image/webp'],
    [[...Buffer.from('II*\0')], 'image/tiff'],
    [[...Buffer.from('MM\0*')], 'image/tiff'],
    [[0, 0, 0, 0x1c, ...Buffer.from('ftypavif')], 'image/avif'],
    [[0, 0, 0, 0x18, ...Buffer.from('ftypheic')], 'image/heic'],
    [[0, 0, 0, 0x18, ...Buffer.from('ftypmif1')], 'image/heic'],
    [[...Buffer.from('BM')], 'image/bmp'],
    [[...Buffer.from('<html>')], undefined],
    [[], undefined],
  ])('%j → %s', (bytes, expected) => {
    expect(sniffImageType(Uint8Array.from(bytes))).toBe(expected);
  });

  it('normalises mime aliases', () => {
    expect(canonicalMime('IMAGE/JPG')).toBe('image/jpeg');
    expect(canonicalMime('image/heif')).toBe('image/heic');
  });
});

describe('outputDimensions', () => {
  it.each([
    [{ imageSize: '1K' as const }, 300, 200, 1024, 683],
    [{ imageSize: '2K' as const }, 200, 300, 1365, 2048],
    [{ imageSize: '1K' as const, aspectRatio: '21:9' as const }, 10, 10, 1024, 439],
    [{ imageSize: '2K' as const, aspectRatio: '1:1' as const }, 10, 50, 2048, 2048],
    [{ imageSize: '1K' as const, aspectRatio: '2:3' as const }, 500, 50, 683, 1024],
  ])('%j from %i×%i → %i×%i', (spec, w, h, width, height) => {
    expect(outputDimensions(spec, w, h)).toEqual({ width, height });
  });
});

describe('FaultInjector', () => {
  it('draws the same sequence per stream for the same seed, whatever the interleaving', () => {
    const a = new FaultInjector(3, DEFAULT_FAULTS);
    const b = new FaultInjector(3, DEFAULT_FAULTS);
    const seqA = [a.next('x'), a.next('y'), a.next('x'), a.next('x')];
    const seqB = [b.next('x'), b.next('x'), b.next('y'), b.next('x')];
    expect([seqA[0], seqA[2], seqA[3]]).toEqual([seqB[0], seqB[1], seqB[3]]);
    expect(seqA[1]).toBe(seqB[2]);
    for (const value of seqA) expect(value).toBeGreaterThanOrEqual(0);
    for (const value of seqA) expect(value).toBeLessThan(1);
  });

  it('hits a rate roughly in proportion', () => {
    const injector = new FaultInjector(11, DEFAULT_FAULTS);
    let hits = 0;
    for (let i = 0; i < 10_000; i++) if (injector.roll('serverError', 'r', 0.1)) hits++;
    expect(hits).toBeGreaterThan(850);
    expect(hits).toBeLessThan(1150);
  });

  it('never fires at rate 0', () => {
    const injector = new FaultInjector(1, DEFAULT_FAULTS);
    for (let i = 0; i < 1000; i++) expect(injector.roll('dropAfter', 'r', 0)).toBe(false);
  });
});

describe('fault options', () => {
  it('parses environment variables and refuses non-numbers', () => {
    expect(faultsFromEnv({ BATCHROOM_SANDBOX_5XX_RATE: '0.1', BATCHROOM_SANDBOX_LATENCY_MS: '20', OTHER: 'x' })).toEqual({ serverErrorRate: 0.1, latencyMs: 20 });
    expect(() => faultsFromEnv({ BATCHROOM_SANDBOX_DROP_AFTER_RATE: 'lots' })).toThrow(/BATCHROOM_SANDBOX_DROP_AFTER_RATE/);
    expect(seedFromEnv({ BATCHROOM_SANDBOX_SEED: '12' })).toBe(12);
    expect(seedFromEnv({})).toBeUndefined();
  });

  it('merges partial updates and validates them', () => {
    expect(mergeFaults(DEFAULT_FAULTS, { malformedJsonRate: 0.5 }).malformedJsonRate).toBe(0.5);
    expect(() => mergeFaults(DEFAULT_FAULTS, { dropBeforeRate: 1.1 })).toThrow(RangeError);
  });
});

describe('imaging Limiter', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

  it('runs tasks in arrival order and follows a change of the slot count while it runs', async () => {
    let slots = 2;
    const limiter = new Limiter(() => slots);
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const gates: Array<() => void> = [];
    const task = (i: number) => limiter.run(async () => {
      started.push(i);
      active++;
      peak = Math.max(peak, active);
      await new Promise<void>((resolve) => gates.push(resolve));
      active--;
    });
    const first = [0, 1, 2, 3].map(task);
    await tick();
    expect(started).toEqual([0, 1]);
    slots = 3; // raised while running: the next task queued picks up the new count
    const more = [4].map(task);
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect(peak).toBe(3);
    while (gates.length > 0) {
      gates.shift()!();
      await tick();
    }
    await Promise.all([...first, ...more]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(3);
  });
});
