import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders, guestAuth } from '@/test/render';
import { mockApi } from '@/test/mock-api';
import { scrollHintsOf } from '@/components/use-scroll-hints';
import { SecondaryBar } from './secondary-bar';

describe('the sections bar on a narrow screen', () => {
  it('knows what is out of view at each edge', () => {
    expect(scrollHintsOf({ scrollLeft: 0, scrollWidth: 390, clientWidth: 390 })).toEqual({ before: false, after: false });
    expect(scrollHintsOf({ scrollLeft: 0, scrollWidth: 520, clientWidth: 390 })).toEqual({ before: false, after: true });
    expect(scrollHintsOf({ scrollLeft: 60, scrollWidth: 520, clientWidth: 390 })).toEqual({ before: true, after: true });
    expect(scrollHintsOf({ scrollLeft: 130, scrollWidth: 520, clientWidth: 390 })).toEqual({ before: true, after: false });
  });

  it('shows a "more" arrow when the row overflows, and follows scrolling', () => {
    mockApi.on('GET', '/category/all-category', { body: { categories: [] } });
    const widths = { scrollWidth: 520, clientWidth: 390 };
    const spies = [
      vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => widths.scrollWidth),
      vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => widths.clientWidth),
    ];
    try {
      renderWithProviders(<SecondaryBar />, { preloadedState: { auth: guestAuth() } });
      const bar = screen.getByTestId('secondary-bar');
      expect(bar).toHaveClass('secondary-bar--more-after');
      expect(screen.getByRole('button', { name: 'Scroll sections right' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Scroll sections left' })).not.toBeInTheDocument();
      const row = bar.querySelector('.secondary-bar__inner') as HTMLElement;
      act(() => {
        row.scrollLeft = 130;
        fireEvent.scroll(row);
      });
      expect(screen.getByRole('button', { name: 'Scroll sections left' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Scroll sections right' })).not.toBeInTheDocument();
      widths.scrollWidth = 390;
      act(() => {
        fireEvent(window, new Event('resize'));
      });
      expect(screen.queryByRole('button', { name: /Scroll sections/ })).not.toBeInTheDocument();
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
  });
});
