import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PathKind } from '../../shared/ipc/channels/files';
import { standardBridge } from './helpers/fixtures';
import { renderApp } from './helpers/render-app';

// Issue 31 #16 and #17: "Review batch…" with an empty required field names it and puts the focus in it (the message
// sat under the sticky footer and named nothing); typed paths are judged by main as soon as they are added.

afterEach(cleanup);

async function openCaption(fake = standardBridge()) {
  const user = userEvent.setup();
  renderApp(fake);
  await user.click(await screen.findByRole('button', { name: /Caption & Watermark/ }));
  const form = await screen.findByRole('form', { name: 'Caption & Watermark settings' });
  return { user, fake, form };
}

describe('an invalid form on "Review batch…"', () => {
  it('focuses the first invalid field and names it in the message', async () => {
    const { user, form } = await openCaption();
    await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), '/p/a.jpg{Enter}');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    const caption = within(form).getByRole('textbox', { name: /Caption/ });
    await waitFor(() => expect(caption).toHaveFocus());
    expect(within(form).getAllByRole('alert').map((a) => a.textContent)).toContainEqual(expect.stringContaining('Caption is required.'));
    expect(form.querySelector('.form-actions')).toHaveTextContent('Caption is required.');
  });

  it('focuses the photo path field when the form is fine but no photo was added', async () => {
    const { user, form } = await openCaption();
    await user.type(within(form).getByRole('textbox', { name: /Caption/ }), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Review batch…' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Add photos by path' })).toHaveFocus());
  });
});

describe('typed paths', () => {
  it('marks a path that does not exist or is not a photo, and counts photos and folders apart', async () => {
    const kinds: Record<string, PathKind> = { '/shoot': 'folder', '/shoot/a.jpg': 'photo', '/nope/b.jpg': 'missing', '/notes.txt': 'not-photo' };
    const fake = standardBridge({ 'files:checkPaths': ({ paths }) => paths.map((path) => ({ path, kind: kinds[path] ?? 'missing' })) });
    const { user, form } = await openCaption(fake);
    for (const path of Object.keys(kinds)) await user.type(screen.getByRole('textbox', { name: 'Add photos by path' }), `${path}{Enter}`);
    const list = screen.getByRole('list', { name: 'Photos to process' });
    const row = (title: string) => within(list).getByTitle(title).closest('li')!;
    await waitFor(() => expect(row('/nope/b.jpg')).toHaveTextContent('not found'));
    expect(row('/notes.txt')).toHaveTextContent('not a photo');
    expect(row('/shoot')).toHaveTextContent('folder');
    expect(row('/shoot/a.jpg')).not.toHaveTextContent(/not found|not a photo|folder$/);
    expect(within(form).getByRole('group', { name: 'Image: Photo' })).toHaveTextContent('1 photo and 1 folder added below — each photo becomes one result. 2 paths cannot be used (marked below).');
    expect(fake.callsTo('files:checkPaths')).toEqual(Object.keys(kinds).map((path) => ({ paths: [path] })));
  });
});
