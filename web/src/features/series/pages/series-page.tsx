/**
 * `/series/:slug`: a series as readers see it: its title, cover, description and writer, the
 * visible parts in order (teasers of subscriber-only ones labelled "For subscribers", the parts
 * the reader has read marked "Read"), the reader's progress, Follow / Following for signed-in
 * readers other than the writer (at once, undone with a message when the server refuses) with,
 * while following, the alerts bell (how the reader hears of new parts: the same menu as an
 * author's, changed and undone the same way), and the series' feeds. The server draws the same
 * page for crawlers.
 */
import { useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { preloadedSeries } from '@/app/initial-data';
import { FeedLinks } from '@/components/feed-links';
import { Page } from '@/components/page';
import { ALERTS_FALLBACK, AlertsMenu, isAlertMode, type AlertMode } from '@/features/follows';
import { formatDate } from '@/lib/format';
import { errorMessage, errorStatus } from '@/lib/http';
import { safeHref } from '@/lib/safe-url';
import { toast } from '@/lib/toast';
import { SERIES_PAGE, seriesApi, useFollowSeriesMutation, useGetSeriesQuery, useSetSeriesAlertsMutation, useUnfollowSeriesMutation } from '../series-api';
import type { PartView, SeriesView } from '../series-types';
import '../series.css';

export const SERIES_NOT_FOUND = 'Series not found';
const FALLBACK = 'Could not load the series';

export const partsLabel = (n: number) => (n === 1 ? '1 part' : `${n} parts`);
export const followersLabel = (n: number) => (n === 1 ? '1 follower' : `${n} followers`);

/** Follow / Following: changes at once; the server's answer settles the count, a refusal undoes it. */
function FollowSeriesButton({ series, slug }: { series: SeriesView; slug: string }) {
  const dispatch = useAppDispatch();
  const [follow] = useFollowSeriesMutation();
  const [unfollow] = useUnfollowSeriesMutation();
  const sending = useRef(false);
  const [busy, setBusy] = useState(false);

  const toggle = async () => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    const next = !series.following;
    const change = dispatch(
      seriesApi.util.updateQueryData(SERIES_PAGE, { series: slug }, (draft) => {
        draft.series.following = next;
        draft.series.followers = Math.max(0, draft.series.followers + (next ? 1 : -1));
        draft.series.alerts = next ? (draft.series.alerts ?? 'instant') : null;
      }),
    );
    try {
      const answer = await (next ? follow : unfollow)({ series: series._id }).unwrap();
      dispatch(
        seriesApi.util.updateQueryData(SERIES_PAGE, { series: slug }, (draft) => {
          draft.series.following = answer.following;
          draft.series.followers = answer.followers;
          draft.series.alerts = answer.alerts ?? (answer.following ? 'instant' : null);
        }),
      );
    } catch (error) {
      change.undo();
      toast.error(errorMessage(error, next ? 'Could not follow the series' : 'Could not unfollow the series'));
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <button
      type="button"
      className={`button button--small ${series.following ? 'button--ghost' : ''}`}
      aria-pressed={series.following}
      aria-busy={busy}
      data-testid="follow-series"
      onClick={() => void toggle()}
    >
      {series.following ? 'Following' : 'Follow'}
      <span className="visually-hidden"> {series.title}</span>
    </button>
  );
}

/**
 * The bell beside Following: how the reader hears of new parts. A choice shows at once; the
 * server's answer settles it, a refusal puts the previous mode back (the menu shows the message).
 */
function SeriesAlerts({ series, slug }: { series: SeriesView; slug: string }) {
  const dispatch = useAppDispatch();
  const [save] = useSetSeriesAlertsMutation();
  const mode: AlertMode = isAlertMode(series.alerts) ? series.alerts : 'instant';

  const choose = async (next: AlertMode) => {
    const change = dispatch(
      seriesApi.util.updateQueryData(SERIES_PAGE, { series: slug }, (draft) => {
        draft.series.alerts = next;
      }),
    );
    try {
      const answer = await save({ series: series._id, body: { mode: next } }).unwrap();
      dispatch(
        seriesApi.util.updateQueryData(SERIES_PAGE, { series: slug }, (draft) => {
          draft.series.following = answer.following;
          draft.series.followers = answer.followers;
          draft.series.alerts = isAlertMode(answer.alerts) ? answer.alerts : next;
        }),
      );
    } catch (error) {
      change.undo();
      throw new Error(errorMessage(error, ALERTS_FALLBACK));
    }
  };

  return <AlertsMenu mode={mode} name={series.title} about={`new parts of ${series.title}`} onChoose={choose} />;
}

function PartItem({ part }: { part: PartView }) {
  const date = formatDate(part.publishedAt);
  return (
    <li className={`series-part ${part.read ? 'series-part--read' : ''}`} data-testid="series-part">
      <p className="series-parts__number">Part {part.position}</p>
      <h2 className="series-part__title">
        <Link to={`/post/${encodeURIComponent(part.slug)}`}>{part.title}</Link>
      </h2>
      <p className="series-part__meta muted">
        {date ? <time dateTime={part.publishedAt ?? undefined}>{date}</time> : null}
        {part.locked ? <span className="chip chip--info">For subscribers</span> : null}
        {part.read ? (
          <span className="chip chip--ok">
            <span aria-hidden="true">✓ </span>Read
          </span>
        ) : null}
      </p>
      {part.excerpt ? <p className="series-part__excerpt">{part.excerpt}</p> : null}
    </li>
  );
}

/** The first part the reader has not read (the first part when they read none, or all). */
function nextToRead(parts: PartView[]): { part: PartView; started: boolean } | null {
  if (parts.length === 0) return null;
  const unread = parts.find((p) => !p.read);
  const started = parts.some((p) => p.read);
  return { part: unread ?? parts[0], started: started && Boolean(unread) };
}

export default function SeriesPage() {
  const { slug = '' } = useParams();
  const { authInitialized, user } = useAppSelector((state) => state.auth);
  // Asked once the session is known: what the reader has read and follows is theirs.
  const { currentData: answered, error, isError, refetch } = useGetSeriesQuery({ series: slug }, { skip: !authInitialized });
  // The series the server's page showed stands in until the answer arrives (no loading flash).
  const currentData = answered ?? (isError ? undefined : preloadedSeries(slug));

  if (!currentData && isError) {
    if (errorStatus(error) === 404) {
      return (
        <Page title={SERIES_NOT_FOUND}>
          <p role="alert">{errorMessage(error, SERIES_NOT_FOUND)}</p>
          <Link to="/">Back to the main page</Link>
        </Page>
      );
    }
    return (
      <Page title="Series not available">
        <p className="form-error" role="alert">
          {errorMessage(error, FALLBACK)}{' '}
          <button type="button" className="link-button" onClick={() => void refetch()}>
            Try again
          </button>
        </p>
      </Page>
    );
  }
  if (!currentData) {
    return (
      <Page title="Series">
        <p className="muted" role="status">
          Loading...
        </p>
      </Page>
    );
  }

  const { series, parts, progress } = currentData;
  const cover = safeHref(series.cover);
  const isWriter = user?._id === series.author._id;
  const start = nextToRead(parts);
  return (
    <Page title={series.title} bare>
      <article className="series" aria-labelledby="series-title">
        <header className="series__header">
          {cover ? <img className="series__cover" src={cover} alt="" /> : null}
          <div className="series__intro">
            <p className="series__kicker">Series</p>
            <h1 id="series-title" className="page__title series__title">
              {series.title}
            </h1>
            <p className="lead muted">
              A series by <Link to={`/author-profile/${series.author._id}`}>{series.author.name}</Link> · {partsLabel(series.total)}
            </p>
            {series.description ? <p className="series__description">{series.description}</p> : null}
            <div className="series__actions">
              {start ? (
                <Link to={`/post/${encodeURIComponent(start.part.slug)}`} className="button button--small">
                  {start.started ? `Continue with Part ${start.part.position}` : 'Start reading'}
                </Link>
              ) : null}
              {user && !isWriter ? <FollowSeriesButton series={series} slug={slug} /> : null}
              {user && !isWriter && series.following ? <SeriesAlerts series={series} slug={slug} /> : null}
              <span className="muted small" data-testid="series-followers">
                {followersLabel(series.followers)}
              </span>
            </div>
            {user && progress.total > 0 ? (
              <div className="series__progress">
                <p className="small" data-testid="series-progress">
                  {progress.read} of {progress.total} read
                </p>
                <progress value={progress.read} max={progress.total} aria-label="Your progress in this series" />
              </div>
            ) : null}
            {isWriter ? (
              <p className="small">
                <Link to="/my-series">Manage your series</Link>
              </p>
            ) : null}
            <FeedLinks base={`/series/${encodeURIComponent(series.slug)}`} label={`Follow ${series.title} in a feed reader`} />
          </div>
        </header>
        <section className="series-parts" aria-label="Parts">
          {parts.length === 0 ? (
            <p className="feed-state muted">No parts published yet.</p>
          ) : (
            <ol className="series-parts__list">
              {parts.map((part) => (
                <PartItem key={part._id} part={part} />
              ))}
            </ol>
          )}
        </section>
      </article>
    </Page>
  );
}
