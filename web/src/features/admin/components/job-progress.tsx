/**
 * Where an administrator's background job stands (`adminJobProgress` events): queued, then
 * "{done} of {total}" with a progress bar, then its outcome. Announced politely to screen readers.
 */
import { useAppSelector } from '@/app/hooks';
import { selectAdmin } from '../admin-slice';

export const JOB_LABELS: Record<string, string> = {
  retry_emails: 'Retrying failed emails',
  broadcast: 'Broadcasting the notice',
};

export function JobProgress({ jobId }: { jobId: string | null | undefined }) {
  const { jobs } = useAppSelector(selectAdmin);
  if (!jobId) return null;
  const job = jobs[jobId];
  const label = (job && JOB_LABELS[job.kind]) ?? 'Working in the background';
  let text: string;
  if (!job || job.status === 'queued') text = `${label}: queued`;
  else if (job.status === 'running') text = job.total == null ? `${label}: starting` : `${label}: ${job.done} of ${job.total}`;
  else if (job.status === 'failed') text = `${label}: ${job.message ?? 'failed'}`;
  else text = `${label}: done${job.message ? ` — ${job.message}` : ''}`;
  return (
    <div className="job-progress" role="status" aria-live="polite" data-testid="job-progress">
      <span>{text}</span>
      {job && job.status === 'running' && job.total ? <progress max={job.total} value={job.done} aria-label={label} /> : null}
    </div>
  );
}
