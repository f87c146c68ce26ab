import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { contract, EVENT_CHANNELS, INVOKE_CHANNELS, type Api } from '../../shared/ipc/contract';
import { event, invoke, eventMethodName, splitChannel, type DomainHandlers, type IpcResult } from '../../shared/ipc/contract-kit';
import { createInvokeDispatcher, unwrap } from '../../shared/ipc/dispatch';
import type { WorkflowCatalog } from '../../shared/service/model';

describe('the IPC contract', () => {
  it('names every channel domain:action in camelCase', () => {
    for (const name of Object.keys(contract)) expect(name).toMatch(/^[a-z][a-zA-Z]*:[a-z][a-zA-Z]*$/);
  });

  it('splits channels into invokes and events with nothing left over', () => {
    expect(INVOKE_CHANNELS.length + EVENT_CHANNELS.length).toBe(Object.keys(contract).length);
    expect(INVOKE_CHANNELS).toContain('workflows:list');
    expect(EVENT_CHANNELS).toContain('batches:progress');
  });

  it('derives the renderer API shape from the contract', () => {
    expectTypeOf<Api['workflows']['list']>().returns.toEqualTypeOf<Promise<IpcResult<WorkflowCatalog>>>();
    expectTypeOf<Api['batches']['onProgress']>().returns.toEqualTypeOf<() => void>();
    expectTypeOf<Parameters<Api['balance']['get']>>().toEqualTypeOf<[args?: Record<string, never>]>();
    expectTypeOf<Parameters<Api['workflows']['get']>>().toEqualTypeOf<[args: { id: string }]>();
    expect(splitChannel('hotFolders:setArmed')).toEqual({ domain: 'hotFolders', action: 'setArmed' });
    expect(eventMethodName('progress')).toBe('onProgress');
  });
});

describe('createInvokeDispatcher', () => {
  const testContract = {
    'demo:echo': invoke(z.object({ text: z.string().min(1) }).strict(), z.object({ text: z.string() })),
    'demo:fail': invoke(z.object({}).strict(), z.object({})),
    'demo:crash': invoke(z.object({}).strict(), z.object({})),
    'demo:lie': invoke(z.object({}).strict(), z.object({ n: z.number() })),
    'demo:tick': event(z.object({ n: z.number() })),
  } as const;
  const key = 'sk_live_abcdefghijklmnop1234';
  const handlers: DomainHandlers<typeof testContract> = {
    'demo:echo': ({ text }) => ({ text }),
    'demo:fail': () => { throw new AppError('insufficient_credits', `Not enough credits for key ${key}`); },
    'demo:crash': () => { throw new Error(`boom with Bearer ${key}`); },
    'demo:lie': () => ({ n: 'seven' }) as unknown as { n: number },
  };
  const internal: string[] = [];
  const dispatch = createInvokeDispatcher(testContract, handlers, { secrets: () => [key], onInternalError: (_c, m) => internal.push(m) });

  it('calls the handler with parsed arguments and wraps the result', async () => {
    await expect(dispatch('demo:echo', { text: 'hi' })).resolves.toEqual({ ok: true, data: { text: 'hi' } });
  });

  it('refuses unknown channels and event channels', async () => {
    await expect(dispatch('demo:nope', {})).resolves.toMatchObject({ ok: false, code: 'bad_request' });
    await expect(dispatch('demo:tick', {})).resolves.toMatchObject({ ok: false, code: 'bad_request' });
    await expect(dispatch('__proto__', {})).resolves.toMatchObject({ ok: false, code: 'bad_request' });
  });

  it('refuses malformed arguments with a readable message', async () => {
    await expect(dispatch('demo:echo', { text: '' })).resolves.toEqual({
      ok: false, code: 'bad_request', message: 'Invalid arguments for demo:echo: text: Too small: expected string to have >=1 characters', field: 'text',
    });
    await expect(dispatch('demo:echo', { text: 'x', extra: 1 })).resolves.toMatchObject({ ok: false, code: 'bad_request' });
  });

  it('turns AppErrors into coded envelopes with the key redacted', async () => {
    const result = await dispatch('demo:fail', {});
    expect(result).toMatchObject({ ok: false, code: 'insufficient_credits' });
    expect(JSON.stringify(result)).not.toContain(key);
  });

  it('turns unexpected errors into internal envelopes, redacted, and reports them', async () => {
    const result = await dispatch('demo:crash', {});
    expect(result).toMatchObject({ ok: false, code: 'internal' });
    expect(JSON.stringify(result)).not.toContain(key);
    expect(internal.join('\n')).not.toContain(key);
  });

  it('checks results against the contract', async () => {
    await expect(dispatch('demo:lie', {})).resolves.toMatchObject({ ok: false, code: 'internal' });
  });

  it('unwrap returns data or throws the coded error', () => {
    expect(unwrap({ ok: true, data: 3 })).toBe(3);
    expect(() => unwrap({ ok: false, code: 'not_found', message: 'gone' })).toThrowError(expect.objectContaining({ code: 'not_found', message: 'gone' }));
    expect(() => unwrap({ ok: false, code: 'insufficient_credits', message: 'short', hint: 'Top up', detail: { required: 39, available: 36 } }))
      .toThrowError(expect.objectContaining({ code: 'insufficient_credits', hint: 'Top up', detail: { required: 39, available: 36 } }));
  });
});
