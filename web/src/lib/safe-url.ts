/**
 * An address that may go into `href`/`src`: an absolute http(s) address or a path inside the site
 * (`/...`, never `//host` or `/\host`, which browsers read as another site). Anything else
 * (`javascript:`, `data:`, `vbscript:`, relative tricks) gives null, and the caller renders no link.
 */
export function safeHref(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  // Backslashes and control characters are read by browsers in ways that change the target.
  // eslint-disable-next-line no-control-regex
  if (value === '' || /[\\\u0000-\u001f\u007f\s]/.test(value)) return null;
  if (value.startsWith('/')) return value.startsWith('//') ? null : value;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}
