import { act, fireEvent, screen } from '@testing-library/react';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { guestAuth, renderWithProviders, signedInAuth } from '@/test/render';
import type { BannerNotification } from '@/types/entities';
import { socketEvents } from '@/features/socket';
import { BannerNotice, useBannerSync } from './banner-notice';

const banner = (over: Partial<BannerNotification> = {}): BannerNotification => ({
  _id: 'b1',
  title: 'Heads up',
  message: 'New features shipped',
  link: 'https://example.com/news',
  region: 'global',
  isActive: true,
  expiresAt: null,
  sticky: false,
  urgent: false,
  dismissedBy: [],
  timestamp: '2026-01-01T00:00:00Z',
  createdAt: '2026-01-01T00:00:00Z',
  ...over,
});

function Harness() {
  useBannerSync();
  return <BannerNotice regions={[]} />;
}

describe('BannerNotice', () => {
  it('shows title, message, a link in a new tab and Dismiss', () => {
    renderWithProviders(<BannerNotice regions={[]} />, { preloadedState: { banner: { banners: [banner()], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } } });
    const notice = screen.getByTestId('banner-notice');
    expect(notice).toHaveTextContent('Heads up');
    expect(notice).toHaveTextContent('New features shipped');
    const link = screen.getByRole('link', { name: 'Learn more' });
    expect(link).toHaveAttribute('href', 'https://example.com/news');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  it.each(['javascript:alert(document.cookie)', 'JavaScript:alert(1)', 'data:text/html,<b>x</b>', '//evil.example/', '/\\evil.example/', 'vbscript:x'])(
    'renders no link for the unsafe address %s',
    (link) => {
      renderWithProviders(<BannerNotice regions={[]} />, { preloadedState: { banner: { banners: [banner({ link })], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } } });
      expect(screen.getByTestId('banner-notice')).toHaveTextContent('Heads up');
      expect(screen.queryByRole('link')).not.toBeInTheDocument();
    },
  );

  it.each([['http://example.com/a'], ['/post/hello']])('renders the safe address %s with rel="noopener noreferrer"', (link) => {
    renderWithProviders(<BannerNotice regions={[]} />, { preloadedState: { banner: { banners: [banner({ link })], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } } });
    const anchor = screen.getByRole('link', { name: 'Learn more' });
    expect(anchor).toHaveAttribute('href', link);
    expect(anchor.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
  });

  it('Dismiss hides it and tells the server for signed-in users', async () => {
    mockApi.on('PATCH', '/bannerNotification/dismiss/b1', { body: {} });
    const { store } = renderWithProviders(<BannerNotice regions={[]} />, {
      preloadedState: { auth: signedInAuth(), banner: { banners: [banner()], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('banner-notice')).not.toBeInTheDocument();
    expect(store.getState().banner.dismissedIds).toEqual(['b1']);
    await vi.waitFor(() => expect(mockApi.calls('PATCH', '/bannerNotification/dismiss/b1')).toHaveLength(1));
  });

  it("hides a non-sticky banner when expiresAt passes, with the toast 'Banner expired.'", () => {
    vi.useFakeTimers();
    try {
      const expiresAt = new Date(Date.now() + 5_000).toISOString();
      renderWithProviders(<BannerNotice regions={[]} />, {
        preloadedState: { banner: { banners: [banner({ expiresAt })], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } },
      });
      expect(screen.getByTestId('banner-notice')).toBeInTheDocument();
      act(() => {
        vi.advanceTimersByTime(5_000);
      });
      expect(screen.queryByTestId('banner-notice')).not.toBeInTheDocument();
      expect(currentToasts().map((t) => t.message)).toContain('Banner expired.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a banner expiring on 2030-01-01 (beyond setTimeout\'s 2^31 - 1 ms) and keeps it shown', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2026-11-26T00:00:00Z'));
      renderWithProviders(<BannerNotice regions={[]} />, {
        preloadedState: { banner: { banners: [banner({ expiresAt: '2030-01-01T00:00:00.000Z' })], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } },
      });
      act(() => {
        vi.advanceTimersByTime(10);
      });
      expect(screen.getByTestId('banner-notice')).toHaveTextContent('Heads up');
      act(() => {
        vi.advanceTimersByTime(2 ** 31);
      });
      expect(screen.getByTestId('banner-notice')).toBeInTheDocument();
      expect(currentToasts().map((t) => t.message)).not.toContain('Banner expired.');
    } finally {
      vi.useRealTimers();
    }
  });

  it("says 'Banner expired.' once when the server deactivates an expired banner first", () => {
    vi.useFakeTimers();
    try {
      const expiresAt = new Date(Date.now() + 5_000).toISOString();
      const { store } = renderWithProviders(<BannerNotice regions={[]} />, {
        preloadedState: { banner: { banners: [banner({ expiresAt })], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } },
      });
      act(() => {
        vi.advanceTimersByTime(4_990);
        store.dispatch(socketEvents.broadcastDeactivated('b1'));
      });
      act(() => {
        vi.advanceTimersByTime(1_000);
      });
      expect(screen.queryByTestId('banner-notice')).not.toBeInTheDocument();
      expect(currentToasts().filter((t) => t.message === 'Banner expired.')).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says nothing when a live banner is dismissed or deactivated before it expires', () => {
    const { store } = renderWithProviders(<BannerNotice regions={[]} />, {
      preloadedState: { banner: { banners: [banner({ expiresAt: new Date(Date.now() + 60_000).toISOString() })], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } },
    });
    act(() => {
      store.dispatch(socketEvents.broadcastDeactivated('b1'));
    });
    expect(screen.queryByTestId('banner-notice')).not.toBeInTheDocument();
    expect(currentToasts()).toEqual([]);
  });

  it('keeps a sticky banner after expiresAt', () => {
    renderWithProviders(<BannerNotice regions={[]} />, {
      preloadedState: { banner: { banners: [banner({ sticky: true, expiresAt: '2000-01-01T00:00:00Z' })], dismissedIds: [], withdrawnIds: [], liveSeq: 0, arrivals: {}, fetchStarts: {}, error: null } },
    });
    expect(screen.getByTestId('banner-notice')).toBeInTheDocument();
  });

  it('is mirrored in local storage and follows changes from other tabs', async () => {
    mockApi.on('GET', '/bannerNotification/get-Notification', { body: { notifications: [banner()] } });
    renderWithProviders(<Harness />, { preloadedState: { auth: guestAuth() } });
    expect(await screen.findByTestId('banner-notice')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('bannerNotification')!)).toEqual({ banners: [banner()], dismissedIds: [] });

    const other = JSON.stringify({ banners: [banner()], dismissedIds: ['b1'] });
    localStorage.setItem('bannerNotification', other);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'bannerNotification', newValue: other }));
    });
    expect(screen.queryByTestId('banner-notice')).not.toBeInTheDocument();
  });
});
