import { Page } from '@/components/page';

export default function PrivacyPage() {
  return (
    <Page title="Privacy Policy">
      <h2>What we store</h2>
      <p>
        Your account details (name, email, avatar), the posts and comments you publish, and your interactions with
        posts. If you allow it, your approximate location is shared with the authors you follow.
      </p>
      <h2>Cookies and local storage</h2>
      <p>
        We keep a session token so you stay signed in, your theme and your cookie choice in your browser's local
        storage. Your cookie choice is also saved with your account when you are signed in. You can change it at any
        time by clearing this site's data in your browser.
      </p>
      <h2>Your rights</h2>
      <p>You can ask us for a copy of your data or for its deletion through the contact page.</p>
    </Page>
  );
}
