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
    </Page>
  );
}

export default PlansPage;
