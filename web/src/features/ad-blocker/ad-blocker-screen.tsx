import { useEffect, useState } from 'react';
import { reloadPage } from '@/lib/browser';
import { detectAdBlocker } from './detect-ad-blocker';

export const AD_BLOCKER_TITLE = 'Ad blocker detected';

/** A full-screen block asking the visitor to disable an ad blocker when one is detected. */
export function AdBlockerScreen() {
  const [blocked, setBlocked] = useState(false);
  useEffect(() => {
    let alive = true;
    void detectAdBlocker().then((result) => alive && setBlocked(result));
    return () => {
      alive = false;
    };
  }, []);
  if (!blocked) return null;
  return (
    <div className="blocker-screen" role="alertdialog" aria-modal="true" aria-labelledby="adblock-title" aria-describedby="adblock-text">
      <div className="blocker-screen__card">
        <h2 id="adblock-title">{AD_BLOCKER_TITLE}</h2>
        <p id="adblock-text">
          Pressroom is free to read because of its sponsors. Please disable your ad blocker for this site, then reload the page.
        </p>
        <button type="button" className="button" onClick={reloadPage}>
          I've disabled it — reload
        </button>
      </div>
    </div>
  );
}
