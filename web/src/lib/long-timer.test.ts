import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_DELAY_MS, setLongTimeout, setTimeoutAt } from './long-timer';

const DAY = 24 * 60 * 60 * 1000;

describe('long timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('the largest delay setTimeout honours is 2^31 - 1 ms', () => {
    expect(MAX_TIMER_DELAY_MS).toBe(2147483647);
  });

  it('a moment four years ahead (2030-01-01) does not fire at once, nor after one step', () => {
    const fired = vi.fn();
    setTimeoutAt(fired, new Date('2030-01-01T00:00:00Z').getTime());
    vi.advanceTimersByTime(1000);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS);
    expect(fired).not.toHaveBeenCalled();
    vi.setSystemTime(new Date('2029-12-31T23:59:59Z'));
    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('fires once, at the moment, after re-arming across 60 days', () => {
    const fired = vi.fn();
    setLongTimeout(fired, 60 * DAY);
    vi.advanceTimersByTime(60 * DAY - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100 * DAY);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('a moment already past fires on the next tick; a cancelled one never fires', () => {
    const past = vi.fn();
    setTimeoutAt(past, Date.now() - 5000);
    const cancelled = vi.fn();
    const cancel = setLongTimeout(cancelled, 40 * DAY);
    vi.advanceTimersByTime(30 * DAY);
    cancel();
    vi.advanceTimersByTime(30 * DAY);
    expect(past).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
