import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { AvatarMenu } from './avatar-menu';

describe('the avatar menu, by keyboard (menu button pattern)', () => {
  it('Enter opens it on the first item; arrows wrap; Home and End; Escape closes and gives focus back', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AvatarMenu />, { preloadedState: { auth: signedInAuth() } });
    const button = screen.getByRole('button', { name: 'Account menu' });
    button.focus();
    await user.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu', { name: 'Account' });
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(screen.getByRole('menuitem', { name: 'Studio' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Profile' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Studio' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('menuitem', { name: 'Studio' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('ArrowUp on the button opens it on the last item; Enter on an item follows it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AvatarMenu />, { preloadedState: { auth: signedInAuth() } });
    screen.getByRole('button', { name: 'Account menu' }).focus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'About' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/about');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('only menu items are in the menu, and they are out of the page tab order', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AvatarMenu />, { preloadedState: { auth: signedInAuth() } });
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = screen.getByRole('menu', { name: 'Account' });
    for (const child of Array.from(menu.children)) {
      expect(child).toHaveAttribute('role', 'menuitem');
      expect(child).toHaveAttribute('tabindex', '-1');
    }
    await user.tab();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
