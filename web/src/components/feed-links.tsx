/**
 * Links to the Atom and RSS feeds of a page (`{base}/feed.xml`, `{base}/rss.xml`; the site's own
 * with no base). Plain links: feeds are served by the server, not the app.
 */
export function FeedLinks({ base = '', label }: { base?: string; label: string }) {
  return (
    <p className="feed-links muted">
      <span>{label}: </span>
      <a href={`${base}/feed.xml`} type="application/atom+xml">
        Atom
      </a>
      {' · '}
      <a href={`${base}/rss.xml`} type="application/rss+xml">
        RSS
      </a>
    </p>
  );
}
