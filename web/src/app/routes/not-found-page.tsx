import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';

export const NOT_FOUND_TITLE = 'Page not found';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${NOT_FOUND_TITLE} · Pressroom`;
  }, []);
  return (
    <main className="not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>{NOT_FOUND_TITLE}</h1>
      <p className="muted">
        There is nothing at <code>{pathname}</code>. It may have moved, or the link may be wrong.
      </p>
      <Link to="/" className="button">
        Go to the home page
      </Link>
    </main>
  );
}
