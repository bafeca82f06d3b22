import { useParams } from 'react-router-dom';
import { PlaceholderPage } from '@/components/page';

export function AdminPage() {
  return (
    <PlaceholderPage
      title="Admin dashboard"
      description="User and post moderation, contact messages, reports, payouts, analytics, email status, banner notifications and subscription management appear here."
    />
  );
}

export function AcknowledgePage() {
  const { reportId } = useParams();
  return <PlaceholderPage title="Acknowledge report" description={`Acknowledgement of report ${reportId} appears here.`} />;
}
