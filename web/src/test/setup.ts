import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { mockApi } from './mock-api';
import { clearToasts } from '@/lib/toast';
import { clearPendingEmits, closeSocket, joinUserRooms, loadSocketClient } from '@/lib/socket';
import { resetPublicConfigCache } from '@/features/auth/api/auth-api';
import { fakeSockets } from './fake-socket';

// Pages load on demand (a lazy module is transformed on first use): on a busy machine that can take
// more than the default second, so findBy/waitFor wait up to 5 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: the ad-blocker bait would always look blocked, so tests opt in explicitly.
vi.mock('@/features/ad-blocker/detect-ad-blocker', () => ({
  detectAdBlocker: vi.fn(() => Promise.resolve(false)),
}));

// Components never open real sockets in unit tests.
vi.mock('socket.io-client', async () => {
  const { createFakeIo } = await import('./fake-socket');
  return { io: createFakeIo() };
});

// The app loads socket.io-client on the first connect request; tests load (the fake) up front, so
// a request opens its socket at once (socket.test.ts covers the load itself).
beforeEach(async () => {
  await loadSocketClient();
});

function installMatchMedia() {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as Partial<MediaQueryList> as MediaQueryList;
}

beforeEach(() => {
  installMatchMedia();
  window.scrollTo = vi.fn();
  vi.stubGlobal('fetch', mockApi.fetch);
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  clearToasts();
  joinUserRooms(null);
  clearPendingEmits();
  closeSocket();
  fakeSockets.length = 0;
  resetPublicConfigCache();
  const unhandled = mockApi.takeUnhandled();
  mockApi.reset();
  vi.unstubAllGlobals();
  if (unhandled.length > 0) {
    throw new Error(`Requests without a mock handler:\n  ${unhandled.join('\n  ')}`);
  }
});
