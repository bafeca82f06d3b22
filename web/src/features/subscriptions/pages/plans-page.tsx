/**
 * `/plans/{id}`: an author's subscription plans. A reader sees the active plans and their
 * subscription with this author; the author themself gets the money studio (plans, subscribers,
 * earnings, bank details, eligibility) unless they ask for the reader's view (`?view=reader`).
 */
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { AuthorMoneyStudio } from '../components/author-money-studio';
import { ReaderPlans } from '../components/reader-plans';
import { TestModeBadge } from '../components/test-mode-badge';
import { selectSubscriptions } from '../subscriptions-slice';

/** The refund policy (docs/refunds.md), with the server's default numbers. */
export const REFUND_POLICY = [
  'You may ask for a refund of a subscription within 7 days of its latest charge; access ends at once and the money goes back to the card it came from.',
  'Each plan is refunded at most once: after a refund of a plan, a new subscription to the same plan cannot be refunded.',
  'You may be refunded at most one subscription per author in any 90 days.',
  'A refused refund says which rule applies and, for the last one, from which day a refund is possible again.',
] as const;

function RefundPolicy() {
  return (
    <section className="refund-policy" aria-labelledby="refund-policy-title" data-testid="refund-policy">
      <h2 id="refund-policy-title">Refund policy</h2>
      <ul>
        {REFUND_POLICY.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
    </section>
  );
}

export function PlansPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const me = useAppSelector((s) => s.auth.user);
  const { authorPlans, myPlans, mode } = useAppSelector(selectSubscriptions);
  const own = me?._id === id && params.get('view') !== 'reader';
  const authorName = (authorPlans.authorId === id ? authorPlans.value[0]?.authorName : null) ?? (own ? me?.name : null);
  const shownMode = mode ?? authorPlans.value[0]?.mode ?? myPlans.value[0]?.mode ?? null;
  return (
    <Page title={own ? 'Your plans and earnings' : authorName ? `Plans of ${authorName}` : 'Subscription plans'} wide>
      <div className="page-head">
        <p className="muted">
          {own ? (
            <>
              Sell subscriptions to your readers. <Link to={`/author-profile/${id}`}>Your profile</Link>
            </>
          ) : (
            <Link to={`/author-profile/${id}`}>{authorName ? `About ${authorName}` : "The author's profile"}</Link>
          )}
        </p>
        <TestModeBadge mode={shownMode} />
      </div>
      {own ? <AuthorMoneyStudio authorId={id} /> : <ReaderPlans authorId={id} />}
      <RefundPolicy />
    </Page>
  );
}

export default PlansPage;
