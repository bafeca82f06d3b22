import { useGetAdminReadingDetailsByPostIdQuery } from '@/api/endpoints';
import { Modal } from '@/components/modal';
import { errorMessage } from '@/lib/http';
import { formatDate } from '@/lib/format';
import { ADMIN_FALLBACK } from '../admin-api';

/** Seconds as "1 h 02 min", "3 min 05 s" or "42 s". */
export function durationLabel(seconds: number): string {
  const s = Math.max(0, Math.round(seconds || 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(rest).padStart(2, '0')} s`;
  return `${rest} s`;
}

/** An administrator's view of who read a post for how long (`GET /admin/reading-details/{postId}`). */
export function ReadingDetailsDialog({ post, onClose }: { post: { _id: string; title: string }; onClose: () => void }) {
  const { data, error: failure, isFetching, refetch } = useGetAdminReadingDetailsByPostIdQuery({ postId: post._id });
  // Trying again shows Loading... until the answer comes.
  const error = failure && !isFetching ? errorMessage(failure, ADMIN_FALLBACK.readingDetails) : null;

  return (
    <Modal title={`Reading details: ${post.title}`} labelledBy="reading-details-title" onClose={onClose} className="modal--wide">
      {error ? (
        <div role="alert" className="form-error">
          <p>{error}</p>
          <button type="button" className="button button--small button--ghost" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : !data ? (
        <p role="status">Loading...</p>
      ) : (
        <>
          <dl className="details">
            <dt>Readers</dt>
            <dd>{data.readers}</dd>
            <dt>Reading sessions</dt>
            <dd>{data.sessions}</dd>
            <dt>Total time read</dt>
            <dd>{durationLabel(data.totalTimeSpent)}</dd>
            <dt>Average per reader</dt>
            <dd>{durationLabel(data.averageTimeSpent)}</dd>
          </dl>
          {data.details.length === 0 ? (
            <p className="muted">Nobody has read this post yet.</p>
          ) : (
            <div className="table-scroll">
              <table className="data-table">
                <caption className="visually-hidden">Readers, longest reading first</caption>
                <thead>
                  <tr>
                    <th scope="col">Reader</th>
                    <th scope="col">Time read</th>
                    <th scope="col">Sessions</th>
                    <th scope="col">Last read</th>
                  </tr>
                </thead>
                <tbody>
                  {data.details.map((d) => (
                    <tr key={d.reader}>
                      <td>{d.user ? `${d.user.name} (${d.user.email})` : d.guest ? 'Guest' : 'Deleted user'}</td>
                      <td>{durationLabel(d.timeSpent)}</td>
                      <td>{d.sessions}</td>
                      <td>{formatDate(d.lastReadAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
