/**
 * Detects an ad blocker with a bait element that blockers hide by class name. Nothing is
 * fetched from any ad network.
 */
export async function detectAdBlocker(): Promise<boolean> {
  const bait = document.createElement('div');
  bait.className = 'adsbox ad-banner ad-placement textads banner-ads pub_300x250';
  bait.setAttribute('aria-hidden', 'true');
  bait.style.cssText = 'position:absolute;left:-9999px;top:-9999px;width:1px;height:10px;';
  bait.innerHTML = '&nbsp;';
  document.body.appendChild(bait);
  await new Promise((resolve) => setTimeout(resolve, 150));
  const style = window.getComputedStyle(bait);
  const blocked = !bait.isConnected || bait.offsetHeight === 0 || style.display === 'none' || style.visibility === 'hidden';
  bait.remove();
  return blocked;
}
