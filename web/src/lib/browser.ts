/** Thin wrappers over browser APIs that tests replace. */
export function reloadPage(): void {
  window.location.reload();
}

export function scrollToTop(): void {
  try {
    window.scrollTo({ top: 0, behavior: 'smooth' });
  } catch {
    /* not supported */
  }
}

export function prefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}
