/**
 * The retry helper of the administrators' user and post lists (seed 001 §9): 2 attempts, 1000 ms
 * apart. Only failures that another try may mend are tried again: no answer at all (network,
 * time-out) and server errors (5xx); a 4xx answer is final at once.
 */
import { ApiError } from '@/lib/http';

export const RETRY_ATTEMPTS = 2;
export const RETRY_DELAY_MS = 1000;

export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status >= 500;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function withRetry<T>(
  run: () => Promise<T>,
  { attempts = RETRY_ATTEMPTS, delayMs = RETRY_DELAY_MS, wait = sleep }: { attempts?: number; delayMs?: number; wait?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      lastError = error;
      if (attempt === attempts || !isRetryable(error)) break;
      await wait(delayMs);
    }
  }
  throw lastError;
}
