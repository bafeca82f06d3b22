import { act } from '@testing-library/react';
import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth } from '@/test/render';
import { fetchCurrentUser, updateCurrentUser, USER_ERROR_CLEAR_MS } from './users-slice';

describe('users', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a user error clears after 3 seconds', async () => {
    vi.useFakeTimers();
    mockApi.on('GET', '/user/get-user', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await act(() => store.dispatch(fetchCurrentUser()));
    expect(store.getState().users.error).toBe('Failed to fetch user');
    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(store.getState().users.error).toBe('Failed to fetch user');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(store.getState().users.error).toBeNull();
    expect(USER_ERROR_CLEAR_MS).toBe(3000);
  });

  it('a newer error gets its own 3 seconds', async () => {
    vi.useFakeTimers();
    mockApi.on('GET', '/user/get-user', { status: 500 });
    mockApi.on('PATCH', '/user/update-user', { status: 400, body: { message: 'Unknown field role' } });
    const store = setupStore({ auth: signedInAuth() });
    await act(() => store.dispatch(fetchCurrentUser()));
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await act(() => store.dispatch(updateCurrentUser({ name: 'x' })));
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(store.getState().users.error).toBe('Unknown field role');
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(store.getState().users.error).toBeNull();
  });

  it("a profile without data is 'Invalid user data'", async () => {
    mockApi.on('GET', '/user/get-user', { body: {} });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchCurrentUser());
    expect(store.getState().users.error).toBe('Invalid user data');
  });
});
