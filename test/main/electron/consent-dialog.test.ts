import { describe, expect, it, vi } from 'vitest';
import { dialogOriginConsent, type ConsentBox } from '../../../main/electron/consent-dialog';

const move = { kind: 'move-key', from: 'https://api.batchroom.example', to: 'https://attacker.test' } as const;

describe('dialogOriginConsent (Electron)', () => {
  it('asks in a native box naming both origins, with Cancel as the default and the Escape answer', async () => {
    const boxes: ConsentBox[] = [];
    const consent = dialogOriginConsent(async (box) => {
      boxes.push(box);
      return { response: 0 };
    });
    expect(consent.via).toBe('dialog');
    expect(await consent.confirm(move)).toBe(false);
    expect(boxes[0]).toMatchObject({ type: 'warning', defaultId: 0, cancelId: 0, buttons: ['Cancel', 'Send it to https://attacker.test'] });
    expect(boxes[0]!.message).toBe('Send the API key saved for https://api.batchroom.example to https://attacker.test?');
  });

  it('confirms only on the second button; a dialog that fails is a refusal', async () => {
    expect(await dialogOriginConsent(async () => ({ response: 1 })).confirm(move)).toBe(true);
    expect(await dialogOriginConsent(async () => ({ response: 2 })).confirm(move)).toBe(false);
    expect(await dialogOriginConsent(vi.fn(async () => Promise.reject(new Error('no display')))).confirm(move)).toBe(false);
  });

  it('words each kind of change with both origins', async () => {
    const messages: string[] = [];
    const consent = dialogOriginConsent(async (box) => (messages.push(box.message), { response: 1 }));
    await consent.confirm({ kind: 'trust-origin', from: 'https://a.example', to: 'https://b.example' });
    await consent.confirm({ kind: 'change-service', from: 'https://a.example', to: 'https://b.example' });
    for (const message of messages) expect(message).toMatch(/https:\/\/a\.example.*https:\/\/b\.example/);
  });
});
