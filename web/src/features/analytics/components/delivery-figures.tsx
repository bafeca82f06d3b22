/**
 * On a post's stats: how many followers were told of it and how many emails went out or failed
 * (`GET /api/post/delivery/{id}`), updated live while it is being sent (`postDeliveryUpdated`).
 */
import { useEffect, useState } from 'react';
import { useGetPostDeliveryByIdQuery } from '@/api/endpoints';
import { errorMessage } from '@/lib/http';
import { postDeliveryEvents, type PostDelivery } from '@/features/socket';

export const DELIVERY_FALLBACK = 'Failed to fetch delivery figures';

export function DeliveryFigures({ postId }: { postId: string }) {
  const { data, error } = useGetPostDeliveryByIdQuery({ id: postId });
  // What the socket said since (`postDeliveryUpdated`), over what was read.
  const [live, setLive] = useState<Partial<PostDelivery> | null>(null);
  useEffect(() => {
    setLive(null);
    const onUpdate = (event: Event) => {
      const detail = (event as CustomEvent<PostDelivery>).detail;
      if (detail?.postId === postId) setLive((l) => ({ ...l, ...detail }));
    };
    postDeliveryEvents.addEventListener('update', onUpdate);
    return () => postDeliveryEvents.removeEventListener('update', onUpdate);
  }, [postId]);
  const figures = data || live ? { ...data, ...live } : null;
  if (error) return <p className="form-error small">{errorMessage(error, DELIVERY_FALLBACK)}</p>;
  if (!figures) return null;
  if (figures.announced === false) {
    return <p className="muted small">Followers are told of this post when it is published.</p>;
  }
  return (
    <div className="delivery-figures" aria-labelledby={`delivery-${postId}`} data-testid="delivery-figures">
      <h3 id={`delivery-${postId}`} className="small">
        Readers told {figures.done ? '' : '(sending…)'}
      </h3>
      <dl className="delivery-figures__list" aria-live="polite">
        <div>
          <dt>Notifications</dt>
          <dd>{figures.notices}</dd>
        </div>
        <div>
          <dt>Emails sent</dt>
          <dd>{figures.sendEmail === false ? 'Not emailed' : figures.emailsSent}</dd>
        </div>
        <div>
          <dt>Emails failed</dt>
          <dd>{figures.emailsFailed}</dd>
        </div>
      </dl>
    </div>
  );
}
