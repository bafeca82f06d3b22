import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './modal';

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button type="button" onClick={() => setOpen(true)}>
        Open dialog
      </button>
      <a href="#behind">Behind</a>
      {open ? (
        <Modal title="Share Your Feedback" labelledBy="t" onClose={() => setOpen(false)}>
          <textarea aria-label="Message" />
          <button type="button">Cancel</button>
          <button type="button">Submit</button>
        </Modal>
      ) : null}
    </div>
  );
}

describe('Modal', () => {
  it('moves focus in, keeps Tab and Shift+Tab inside, and makes the page behind inert', async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open dialog' }));
    const dialog = screen.getByRole('dialog', { name: 'Share Your Feedback' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByLabelText('Message')).toHaveFocus();
    expect(container).toHaveAttribute('inert');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveFocus();
    await user.tab();
    // Wraps to the first control (the close button in the header).
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveFocus();
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('closes on Escape and gives focus back to what opened it', async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open dialog' });
    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
    expect(container).not.toHaveAttribute('inert');
  });

  it('closes on its close button and gives focus back', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open dialog' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('a field with autoFocus inside: focus still goes back to the button that opened it', async () => {
    function WithAutoFocus() {
      const [open, setOpen] = useState(false);
      return (
        <div>
          <button type="button" onClick={() => setOpen(true)}>
            Open search
          </button>
          {open ? (
            <Modal title="Search" labelledBy="s" onClose={() => setOpen(false)}>
              <input aria-label="Query" autoFocus />
            </Modal>
          ) : null}
        </div>
      );
    }
    const user = userEvent.setup();
    render(<WithAutoFocus />);
    const opener = screen.getByRole('button', { name: 'Open search' });
    await user.tab();
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Query')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('closes on a press outside it (on the backdrop) and gives focus back', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open dialog' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByLabelText('Message'));
    expect(dialog).toBeInTheDocument();
    await user.pointer({ keys: '[MouseLeft]', target: dialog.parentElement! });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('a dialog over a dialog: Escape closes only the top one', async () => {
    function Nested() {
      const [outer, setOuter] = useState(true);
      const [inner, setInner] = useState(false);
      return outer ? (
        <Modal title="Outer" labelledBy="o" onClose={() => setOuter(false)}>
          <button type="button" onClick={() => setInner(true)}>
            Ask
          </button>
          {inner ? (
            <Modal title="Inner" labelledBy="i" onClose={() => setInner(false)}>
              <button type="button">Confirm</button>
            </Modal>
          ) : null}
        </Modal>
      ) : null;
    }
    const user = userEvent.setup();
    render(<Nested />);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    expect(screen.getByRole('button', { name: 'Confirm' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Inner' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Outer' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ask' })).toHaveFocus();
  });
});
