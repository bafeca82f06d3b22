/**
 * A part's place in its series on the post page: "Part k of n in {series}", the previous and next
 * parts, and every part (the list is folded away on phones). Drawn from the post's own answer
 * (`post.series`): no request of its own, and small, as it is part of a reader's first load.
 */
import { Link } from 'react-router-dom';
import { useMediaQuery } from '@/components/use-media-query';
import type { SeriesPlace } from '../series-types';

/** Under this width the list of parts starts folded. */
export const PHONE_QUERY = '(max-width: 640px)';

const postPath = (slug: string) => `/post/${encodeURIComponent(slug)}`;

/** The previous and next parts (nothing when the part stands alone). */
export function SeriesSteps({ place }: { place: SeriesPlace }) {
  const { previous, next } = place;
  if (!previous && !next) return null;
  return (
    <p className="series-bar__steps">
      {previous ? (
        <Link to={postPath(previous.slug)} rel="prev" className="series-bar__step">
          <span className="series-bar__dir">
            <span aria-hidden="true">← </span>Previous
          </span>
          <span>
            Part {previous.position}: {previous.title}
          </span>
        </Link>
      ) : null}
      {next ? (
        <Link to={postPath(next.slug)} rel="next" className="series-bar__step series-bar__step--next">
          <span className="series-bar__dir">
            Next<span aria-hidden="true"> →</span>
          </span>
          <span>
            Part {next.position}: {next.title}
          </span>
        </Link>
      ) : null}
    </p>
  );
}

export function SeriesBar({ place }: { place: SeriesPlace }) {
  const phone = useMediaQuery(PHONE_QUERY);
  return (
    <nav className="series-bar" aria-label="Series">
      <p className="series-bar__title">
        Part {place.position} of {place.total} in <Link to={`/series/${encodeURIComponent(place.slug)}`}>{place.title}</Link>
      </p>
      <SeriesSteps place={place} />
      {/* Open on wide screens, folded on phones; the reader's own choice stands until the width class changes. */}
      <details className="series-bar__parts" open={!phone} key={phone ? 'phone' : 'wide'}>
        <summary>All {place.total} parts</summary>
        <ol>
          {place.parts.map((part) => (
            <li key={part.slug}>
              <Link to={postPath(part.slug)} aria-current={part.position === place.position ? 'page' : undefined}>
                {part.title}
              </Link>
            </li>
          ))}
        </ol>
      </details>
    </nav>
  );
}

/** Where to go on at the end of a part: the previous and next parts. */
export function SeriesEnd({ place }: { place: SeriesPlace }) {
  if (!place.previous && !place.next) return null;
  return (
    <nav className="series-bar series-bar--end" aria-label={`More of ${place.title}`}>
      <SeriesSteps place={place} />
    </nav>
  );
}
