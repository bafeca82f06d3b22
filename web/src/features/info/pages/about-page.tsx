import { Page } from '@/components/page';

export default function AboutPage() {
  return (
    <Page title="About Pressroom">
      <p>
        Pressroom is a home for independent writers. Authors publish articles and blogs built from rich content blocks —
        text, images, code and polls — under the categories they care about. Readers follow authors, like, bookmark,
        share and discuss posts, and can support their favourite writers through subscription plans.
      </p>
      <p>
        Everything that happens is live: you see who is online, get notified the moment someone reacts to your work, and
        receive announcements from the team without reloading.
      </p>
    </Page>
  );
}
