/**
 * The installed app's badge (`navigator.setAppBadge`) follows the unread count the page knows,
 * so reading notifications in a tab clears what a push set. Browsers without the Badging API,
 * or that refuse (not installed, no permission), are left alone.
 */
export function showAppBadge(count: number, nav: Partial<Pick<Navigator, 'setAppBadge' | 'clearAppBadge'>> = navigator): void {
  try {
    const done = count > 0 ? nav.setAppBadge?.(count) : nav.clearAppBadge?.();
    done?.catch(() => undefined);
  } catch {
    // The badge is a nicety: nothing to tell.
  }
}
