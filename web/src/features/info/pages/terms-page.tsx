import { Page } from '@/components/page';

export default function TermsPage() {
  return (
    <Page title="Terms of Service">
      <p>By using Pressroom you agree to publish only content you have the right to share and to treat other members with respect.</p>
      <p>Administrators may block posts or accounts that break these rules; authors may appeal a blocked post.</p>
      <p>Paid subscriptions are between readers and authors; refunds follow the plan's terms.</p>
    </Page>
  );
}
