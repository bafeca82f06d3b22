import { useState } from 'react';
import { applyUpdate } from './apply-update';

/**
 * The prompt: "A new version of Pressroom is ready." with Reload, which applies it, and Later,
 * which hides it until the next new version or the next page load. The page never reloads by
 * itself.
 */
export function UpdatePromptBox({ generation }: { generation: number }) {
  const [dismissed, setDismissed] = useState(0);
  if (generation === dismissed) return null;
  return (
    <div className="update-prompt__box">
      <span className="update-prompt__text">A new version of Pressroom is ready.</span>
      <div className="update-prompt__actions">
        <button type="button" className="button button--small" onClick={() => applyUpdate()}>
          Reload
        </button>
        <button type="button" className="button button--small button--ghost" onClick={() => setDismissed(generation)}>
          Later
        </button>
      </div>
    </div>
  );
}
