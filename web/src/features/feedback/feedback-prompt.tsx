import { lazy, Suspense } from 'react';
import { useAppSelector } from '@/app/hooks';
import { selectFeedback } from './feedback-slice';

/** The dialog's code loads when it is asked for: a reader's first load does not carry it. */
const FeedbackModal = lazy(() => import('./feedback-modal').then((m) => ({ default: m.FeedbackModal })));

/** The feedback dialog, while it is asked for ("Give feedback", or the app's prompt). */
export function FeedbackPrompt() {
  const { shouldPrompt } = useAppSelector(selectFeedback);
  return shouldPrompt ? (
    <Suspense fallback={null}>
      <FeedbackModal />
    </Suspense>
  ) : null;
}
