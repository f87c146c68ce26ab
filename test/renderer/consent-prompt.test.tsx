import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyStatus } from '../../shared/settings/key-status';
import { FakeFailure } from './helpers/fake-bridge';
import { keyStatus, standardBridge } from './helpers/fixtures';
import { showView } from './helpers/render-app';

afterEach(cleanup);

const elsewhere: KeyStatus = { ...keyStatus, otherServiceKeys: [{ serviceUrl: 'https://old.example/api/v1', keyMasked: 'sk_live_…77aa' }] };
const moved: KeyStatus = { ...keyStatus, mode: 'live', hasKey: true, keyMasked: 'sk_live_…77aa', source: 'keychain', sandboxReason: null, message: 'Using the key from the keychain.' };
const asked = { kind: 'move-key', from: 'https://old.example', to: 'https://api.example' } as const;

/** key:reuse as main does it: it announces the question, then waits for the answer (the code, or a refusal). */
function bridgeAsking(via: 'code' | 'dialog') {
  const fake = standardBridge({ 'key:status': () => elsewhere });
  let settle: (ok: boolean) => void = () => {};
  fake.handle('key:reuse', () => {
    fake.emit('consent:requested', { ...asked, via });
    return new Promise<KeyStatus>((resolve, reject) => {
      settle = (ok) => (ok ? (fake.handle('key:status', () => moved), resolve(moved)) : reject(new FakeFailure('cancelled', 'The key was not sent to https://api.example: it was not confirmed.')));
    });
  });
  fake.handle('consent:answer', ({ code }) => {
    if (code !== '12345678') return { accepted: false, reason: 'wrong' as const, triesLeft: 2 };
    settle(true);
    return { accepted: true };
  });
  fake.handle('consent:cancel', () => (settle(false), {}));
  return { fake, answerFromDialog: (ok: boolean) => act(() => settle(ok)) };
}

async function askToMove(via: 'code' | 'dialog') {
  const { fake, answerFromDialog } = bridgeAsking(via);
  const { user } = await showView('settings', fake);
  await user.click(within(await screen.findByRole('group', { name: 'Key saved for another service' })).getByRole('button', { name: 'Use it for this service' }));
  const prompt = await screen.findByRole('alertdialog', { name: 'Confirm the new service' });
  return { fake, user, prompt, answerFromDialog };
}

describe('origin confirmation prompt', () => {
  it('browser host: asks for the terminal code naming both origins, passes it on, says when it is wrong', async () => {
    const { fake, user, prompt } = await askToMove('code');
    expect(prompt).toHaveTextContent('Send the API key saved for https://old.example to https://api.example?');
    const field = within(prompt).getByLabelText('Type the code printed in the terminal that started Batchroom');
    await user.type(field, '00000000');
    await user.click(within(prompt).getByRole('button', { name: 'Confirm' }));
    expect(await within(prompt).findByRole('alert')).toHaveTextContent('That is not the code. 2 tries left.');
    await user.type(field, '12345678');
    await user.click(within(prompt).getByRole('button', { name: 'Confirm' }));
    expect(fake.callsTo('consent:answer')).toEqual([{ code: '00000000' }, { code: '12345678' }]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(await screen.findByLabelText('Masked API key')).toHaveTextContent('sk_live_…77aa');
  });

  it('Cancel refuses at once: nothing moves and the refusal is explained', async () => {
    const { fake, user, prompt } = await askToMove('code');
    await user.click(within(prompt).getByRole('button', { name: 'Cancel' }));
    expect(fake.callsTo('consent:cancel')).toEqual([{}]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(await screen.findByText(/was not confirmed|cancelled/)).toBeInTheDocument();
  });

  it('Electron: says to answer the native dialog, and has nothing to type', async () => {
    const { fake, prompt, answerFromDialog } = await askToMove('dialog');
    expect(prompt).toHaveTextContent('Answer in the Batchroom dialog.');
    expect(within(prompt).queryByRole('textbox')).not.toBeInTheDocument();
    answerFromDialog(true);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(fake.callsTo('consent:answer')).toEqual([]);
  });
});
