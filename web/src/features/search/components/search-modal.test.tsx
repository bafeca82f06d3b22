import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { SearchModal } from './search-modal';

/** The header's search toggle (phone widths): a button that opens the search dialog. */
function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-label="Open search" onClick={() => setOpen(true)}>
        Search
      </button>
      {open ? <SearchModal onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** Focuses the Search button and opens the dialog with Enter, as from the keyboard. */
async function openByKeyboard(user: ReturnType<typeof userEvent.setup>) {
  const button = screen.getByRole('button', { name: 'Open search' });
  await user.tab();
  expect(button).toHaveFocus();
  await user.keyboard('{Enter}');
  const dialog = screen.getByRole('dialog', { name: 'Search' });
  expect(screen.getByRole('combobox', { name: 'Search' })).toHaveFocus();
  return { button, dialog };
}

describe('SearchModal', () => {
  it('Escape closes it and gives focus back to the Search button that opened it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const { button } = await openByKeyboard(user);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('its close button gives focus back to the Search button', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const { button } = await openByKeyboard(user);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('a press outside it gives focus back to the Search button', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const { button, dialog } = await openByKeyboard(user);
    await user.pointer({ keys: '[MouseLeft]', target: dialog.parentElement! });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('typing, then closing without choosing a result, gives focus back to the Search button', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const { button } = await openByKeyboard(user);
    await user.keyboard('ru');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('choosing a result closes it and opens the result (focus on the Search button, which the new page keeps)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      mockApi.on('GET', '/public/search-posts', { body: { posts: [{ _id: 'p1', slug: 'rust-tips', title: 'Rust tips' }], total: 1 } });
      mockApi.on('GET', '/post/search-users', { body: { users: [] } });
      renderWithProviders(<Harness />);
      const button = screen.getByRole('button', { name: 'Open search' });
      button.focus();
      fireEvent.click(button);
      const input = screen.getByRole('combobox', { name: 'Search' });
      fireEvent.change(input, { target: { value: 'rust' } });
      await act(() => {
        vi.advanceTimersByTime(400);
        return Promise.resolve();
      });
      await screen.findByRole('option', { name: 'Rust tips' });
      fireEvent.keyDown(input, { key: 'ArrowDown' });
      fireEvent.keyDown(input, { key: 'Enter' });
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent('/post/rust-tips');
      expect(button).toHaveFocus();
    } finally {
      vi.useRealTimers();
    }
  });
});
