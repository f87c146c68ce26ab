import { describe, expect, it } from 'vitest';
import { createCodeConsent } from '../../../main/host/consent-code';

const request = { kind: 'move-key', from: 'https://api.batchroom.example', to: 'https://attacker.test' } as const;

/** A code consent on a hand-turned clock; `code()` reads the last code from what it printed on the "terminal". */
function harness(options: { perMinute?: number } = {}) {
  let clock = 1_000_000;
  const printed: string[] = [];
  const consent = createCodeConsent({ print: (text) => void printed.push(text), now: () => clock, ...options });
  return {
    consent,
    printed,
    advance: (ms: number) => (clock += ms),
    code: () => [...printed.join('').matchAll(/type this code in the page: (\d{4}) (\d{4})/g)].at(-1)!.slice(1).join(''),
  };
}

describe('createCodeConsent (browser host)', () => {
  it('prints a code naming both origins on the terminal and accepts it once', async () => {
    const h = harness();
    const answered = h.consent.confirm(request);
    expect(h.printed.join('')).toContain('https://api.batchroom.example');
    expect(h.printed.join('')).toContain('https://attacker.test');
    const code = h.code();
    expect(code).toMatch(/^\d{8}$/);
    expect(h.consent.answer!(`${code.slice(0, 4)} ${code.slice(4)}`)).toEqual({ accepted: true }); // typed as printed
    expect(await answered).toBe(true);
    // Reused: the code is gone the moment it was accepted.
    expect(h.consent.answer!(code)).toEqual({ accepted: false, reason: 'none' });
  });

  it('refuses a wrong code, and a few wrong tries void the code and refuse the request', async () => {
    const h = harness();
    const answered = h.consent.confirm(request);
    const wrong = h.code() === '00000000' ? '11111111' : '00000000';
    expect(h.consent.answer!(wrong)).toEqual({ accepted: false, reason: 'wrong', triesLeft: 2 });
    expect(h.consent.answer!('')).toEqual({ accepted: false, reason: 'wrong', triesLeft: 1 });
    expect(h.consent.answer!(wrong)).toEqual({ accepted: false, reason: 'invalidated', triesLeft: 0 });
    expect(await answered).toBe(false);
    expect(h.consent.answer!(h.code())).toEqual({ accepted: false, reason: 'none' }); // even the right one, now
  });

  it('refuses an expired code (and ends the waiting request by itself after 2 minutes)', async () => {
    const h = harness();
    const answered = h.consent.confirm(request);
    h.advance(120_001);
    expect(h.consent.answer!(h.code())).toEqual({ accepted: false, reason: 'expired' });
    expect(await answered).toBe(false);
  });

  it('a new question voids the old code; cancel refuses at once; codes are rationed per minute', async () => {
    const h = harness({ perMinute: 2 });
    const first = h.consent.confirm(request);
    const firstCode = h.code();
    const second = h.consent.confirm(request);
    expect(await first).toBe(false);
    if (h.code() !== firstCode) expect(h.consent.answer!(firstCode)).toMatchObject({ accepted: false, reason: 'wrong' });
    h.consent.cancel!();
    expect(await second).toBe(false);
    expect(await h.consent.confirm(request)).toBe(false); // the third in a minute: refused without a code
    expect(h.printed.at(-1)).toMatch(/too often/);
    h.advance(60_001);
    const later = h.consent.confirm(request);
    expect(h.consent.answer!(h.code())).toEqual({ accepted: true });
    expect(await later).toBe(true);
  });
});
