import { useState } from 'react';
import { Link } from 'react-router-dom';

export const PRODUCT_NAME = 'Pressroom';
export const LOGO_FAILED = 'Logo failed to load.';
/** Bounce 1 s, each letter 0.1 s after the previous one, then a 2 s pause before the word repeats. */
const BOUNCE_S = 1;
const LETTER_DELAY_S = 0.1;
const PAUSE_S = 2;

function keyframes(cycleS: number) {
  const pct = (s: number) => `${((s / cycleS) * 100).toFixed(2)}%`;
  return `@keyframes logo-bounce {
  0% { transform: translateY(0); }
  ${pct(BOUNCE_S * 0.3)} { transform: translateY(-7px); }
  ${pct(BOUNCE_S * 0.55)} { transform: translateY(0); }
  ${pct(BOUNCE_S * 0.75)} { transform: translateY(-3px); }
  ${pct(BOUNCE_S)}, 100% { transform: translateY(0); }
}`;
}

export function AnimatedLogo({ to = '/' }: { to?: string }) {
  const [failed, setFailed] = useState(false);
  const letters = [...PRODUCT_NAME];
  const cycle = BOUNCE_S + LETTER_DELAY_S * (letters.length - 1) + PAUSE_S;
  return (
    <Link to={to} className="logo" aria-label={`${PRODUCT_NAME} home`}>
      <style>{keyframes(cycle)}</style>
      {failed ? (
        <span className="logo__error" role="img" aria-label={LOGO_FAILED}>
          {LOGO_FAILED}
        </span>
      ) : (
        <img src="/logo.svg" alt="" className="logo__image" width={28} height={28} onError={() => setFailed(true)} />
      )}
      <span className="logo__word" aria-hidden="true">
        {letters.map((letter, i) => (
          <span
            key={i}
            className="logo__letter"
            style={{ animation: `logo-bounce ${cycle}s ease-in-out ${(i * LETTER_DELAY_S).toFixed(1)}s infinite` }}
          >
            {letter}
          </span>
        ))}
      </span>
    </Link>
  );
}
