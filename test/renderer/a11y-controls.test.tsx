import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Dialog } from '../../renderer/components/Dialog';
import { RadioGroup } from '../../renderer/components/RadioGroup';
import { ScreenTitle } from '../../renderer/components/ScreenTitle';

// The two building blocks keyboard users meet everywhere: the radio group (one Tab stop, arrows choose) and the
// dialog (focus in on the right control, back out to a sensible place, never <body>).

afterEach(cleanup);

function Sizes({ initial = null as string | null }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <button type="button">before</button>
      <RadioGroup label="Size" className="segmented" value={value} onChange={setValue} options={[null, '1K', '2K'].map((v) => ({ value: v, content: v ?? 'Default' }))} />
      <button type="button">after</button>
    </>
  );
}

describe('RadioGroup', () => {
  it('is one Tab stop on the checked option, and arrows move the choice with the focus, wrapping', async () => {
    const user = userEvent.setup();
    render(<Sizes initial="1K" />);
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(screen.getByRole('radio', { name: '1K' })).toHaveFocus();
    expect(screen.getAllByRole('radio').map((r) => r.tabIndex)).toEqual([-1, 0, -1]);
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: '2K' })).toHaveFocus();
    expect(screen.getByRole('radio', { name: '2K' })).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Default' })).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{End}');
    expect(screen.getByRole('radio', { name: '2K' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'after' })).toHaveFocus();
  });

  it('makes the first option the Tab stop when nothing is checked', () => {
    render(<Sizes initial="8K" />);
    expect(screen.getAllByRole('radio').map((r) => r.tabIndex)).toEqual([0, -1, -1]);
  });
});

function Opener({ disableWhileOpen }: { disableWhileOpen: boolean }) {
  const [open, setOpen] = useState(false);
  const [gone, setGone] = useState(false);
  return (
    <main>
      <ScreenTitle hidden>Screen</ScreenTitle>
      {!gone && <button type="button" disabled={disableWhileOpen && open} onClick={() => setOpen(true)}>Open</button>}
      {open && (
        <Dialog title="Summary" onClose={() => setOpen(false)} footer={<button type="button" data-autofocus onClick={() => { setGone(true); setOpen(false); }}>Start</button>}>
          <button type="button">Details</button>
        </Dialog>
      )}
    </main>
  );
}

describe('Dialog focus', () => {
  it('focuses the control marked to autofocus, not ✕, and returns to the opener on Escape', async () => {
    const user = userEvent.setup();
    render(<Opener disableWhileOpen={false} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('button', { name: 'Start' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus());
  });

  it('finds its opener even when the opener was disabled (focus on <body>) while it opened', async () => {
    const user = userEvent.setup();
    render(<Opener disableWhileOpen />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus());
  });

  it('falls back to the screen title when the opener is gone, never to <body>', async () => {
    const user = userEvent.setup();
    render(<Opener disableWhileOpen={false} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Screen' })).toHaveFocus());
  });
});
