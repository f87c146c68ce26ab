import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { fromErrorEnvelope, toErrorEnvelope, wireDetail } from '../../shared/error-envelope';
import { createInvokeDispatcher } from '../../shared/ipc/dispatch';
import { invoke } from '../../shared/ipc/contract-kit';
import { z } from 'zod';

const KEY = 'sk_live_abcdefghijklmnop1234';

describe('AppError across a process boundary', () => {
  it.each([
    ['credits: needed and available cross', { required: 39, available: 36 }, { required: 39, available: 36 }],
    ['anything off the whitelist stays behind', { required: 2, body: { image: 'data:…' }, pid: 42, stack: 'at x' }, { required: 2 }],
    ['one bad value drops that value only', { retryAfterMs: -5, path: '/photos/a.jpg' }, { path: '/photos/a.jpg' }],
    ['a problem list is kept, bounded in shape', { problems: [{ field: 'texts.style', message: 'is not an option' }] }, { problems: [{ field: 'texts.style', message: 'is not an option' }] }],
    ['nothing whitelisted: no detail at all', { cause: 'x' }, undefined],
  ])('%s', (_name, detail, expected) => {
    expect(wireDetail(detail)).toEqual(expected);
  });

  it('carries code, message, field and hint; the key is scrubbed from every text', () => {
    const error = new AppError('keychain_unavailable', `locked while reading ${KEY}`, { field: 'apiKey', hint: `or set BATCHROOM_API_KEY (not ${KEY})`, system: `D-Bus said ${KEY}` });
    const scrub = (text: string) => text.split(KEY).join('sk_live_…1234');
    const envelope = toErrorEnvelope(error, scrub);
    expect(envelope).toEqual({
      ok: false, code: 'keychain_unavailable', message: 'locked while reading sk_live_…1234', field: 'apiKey',
      hint: 'or set BATCHROOM_API_KEY (not sk_live_…1234)', detail: { system: 'D-Bus said sk_live_…1234' },
    });
    expect(JSON.stringify(envelope)).not.toContain(KEY);
  });

  it('comes back as the same AppError on the other side; an unknown code becomes internal with its words kept', () => {
    const back = fromErrorEnvelope(toErrorEnvelope(new AppError('validation', 'not an option', { field: 'texts.style', hint: 'pick one' })));
    expect(back).toMatchObject({ code: 'validation', message: 'not an option', field: 'texts.style', hint: 'pick one' });
    expect(fromErrorEnvelope({ ok: false, code: 'teapot', message: 'short and stout' })).toMatchObject({ code: 'internal', message: 'short and stout' });
  });

  it('the dispatcher answers a handler\'s AppError with the full envelope', async () => {
    const contract = { 'demo:run': invoke(z.object({}).strict(), z.object({})) } as const;
    const dispatch = createInvokeDispatcher(contract, {
      'demo:run': () => {
        throw new AppError('insufficient_credits', 'this batch costs 39 credits but the balance is 36', { required: 39, available: 36, requestBody: 'never sent' });
      },
    });
    await expect(dispatch('demo:run', {})).resolves.toEqual({
      ok: false, code: 'insufficient_credits', message: 'this batch costs 39 credits but the balance is 36', detail: { required: 39, available: 36 },
    });
  });
});
