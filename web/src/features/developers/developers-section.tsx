/** Settings → Developers: personal API keys and webhook endpoints. */
import { ApiKeysSection } from './api-keys-section';
import { WebhooksSection } from './webhooks-section';

export function DevelopersSection() {
  return (
    <>
      <section aria-labelledby="api-keys-title" id="api-keys">
        <h3 id="api-keys-title" className="settings-subtitle">
          API keys
        </h3>
        <ApiKeysSection />
      </section>
      <section aria-labelledby="webhooks-title" id="webhooks">
        <h3 id="webhooks-title" className="settings-subtitle">
          Webhooks
        </h3>
        <WebhooksSection />
      </section>
    </>
  );
}
