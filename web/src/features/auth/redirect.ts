import type { Location } from 'react-router-dom';

/** Where to send a visitor after signing in: the page they came from (same site only), or /. */
export function redirectTarget(location: Location): string {
  const state = location.state as { from?: unknown } | null;
  const fromState = typeof state?.from === 'string' ? state.from : null;
  const fromQuery = new URLSearchParams(location.search).get('redirect');
  const target = fromState ?? fromQuery ?? '/';
  if (!target.startsWith('/') || target.startsWith('//')) return '/';
  if (['/login', '/signup'].some((p) => target === p || target.startsWith(`${p}?`))) return '/';
  return target;
}
