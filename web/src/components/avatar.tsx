import { useState } from 'react';
import { initials } from '@/lib/format';

/** An avatar image, or the person's initials when there is none (or it fails). */
export function Avatar({ name, src, size = 32 }: { name?: string | null; src?: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (src && !failed) {
    return <img className="avatar" src={src} alt="" style={style} onError={() => setFailed(true)} />;
  }
  return (
    // The initials are drawn by CSS (attr), so they never become part of a control's accessible name.
    <span className="avatar avatar--initials" style={style} aria-hidden="true" data-initials={initials(name)} />
  );
}
