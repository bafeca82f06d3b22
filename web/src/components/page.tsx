import { useEffect, type ReactNode } from 'react';

/**
 * Page frame: sets the document title and renders a heading (`bare`: the content brings its own
 * h1, as a post does).
 */
export function Page({ title, children, wide, bare }: { title: string; children?: ReactNode; wide?: boolean; bare?: boolean }) {
  useEffect(() => {
    document.title = `${title} · Pressroom`;
  }, [title]);
  return (
    <section className={`page ${wide ? 'page--wide' : ''}`}>
      {bare ? null : <h1 className="page__title">{title}</h1>}
      {children}
    </section>
  );
}

/** A page whose real content arrives with later work; it says what it is. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return (
    <Page title={title}>
      <p className="muted" data-testid="placeholder">
        {description}
      </p>
    </Page>
  );
}
