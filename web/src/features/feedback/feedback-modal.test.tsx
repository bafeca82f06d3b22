import { act, fireEvent, screen } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { initialFeedbackState } from './feedback-slice';
import { FeedbackModal } from './feedback-modal';

/** Moves the fake clock (synchronously, as a user's wait would), then lets React apply what that caused. */
function advance(ms: number) {
  return act(() => {
    vi.advanceTimersByTime(ms);
    return Promise.resolve();
  });
}

const open = { ...initialFeedbackState, shouldPrompt: true };

describe('FeedbackModal', () => {
  it("is titled 'Share Your Feedback' by default, or the server's message", () => {
    renderWithProviders(<FeedbackModal />, { preloadedState: { feedback: open } });
    expect(screen.getByRole('dialog', { name: 'Share Your Feedback' })).toBeInTheDocument();
  });

  it("uses the server's message as the title", () => {
    renderWithProviders(<FeedbackModal />, { preloadedState: { feedback: { ...open, promptMessage: 'How are we doing?' } } });
    expect(screen.getByRole('dialog', { name: 'How are we doing?' })).toBeInTheDocument();
  });

  it('keeps Submit disabled until a rating and text are given, shows Sending..., thanks, and closes after 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let release: () => void = () => {};
      mockApi.on('POST', '/user/feedback/submit', () => new Promise((resolve) => (release = () => resolve({ body: { success: true } }))));
      const { store } = renderWithProviders(<FeedbackModal />, { preloadedState: { auth: signedInAuth(), feedback: open } });
      const submit = screen.getByRole('button', { name: 'Submit' });
      expect(submit).toBeDisabled();
      fireEvent.click(screen.getByRole('button', { name: '4 stars' }));
      expect(submit).toBeDisabled();
      fireEvent.change(screen.getByLabelText('Your feedback'), { target: { value: 'Lovely' } });
      expect(submit).toBeEnabled();
      fireEvent.click(submit);
      expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
      await vi.waitFor(() => expect(mockApi.calls('POST', '/user/feedback/submit')).toHaveLength(1));
      await act(() => Promise.resolve(release()));
      expect(await screen.findByText('Thank you for your feedback!')).toBeInTheDocument();
      expect(mockApi.calls('POST', '/user/feedback/submit')[0].body).toEqual({ rating: 4, message: 'Lovely' });
      await advance(1_000);
      expect(screen.getByText('Thank you for your feedback!')).toBeInTheDocument();
      await advance(1_000);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(store.getState().feedback).toEqual(initialFeedbackState);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Cancel closes it', () => {
    const { store } = renderWithProviders(<FeedbackModal />, { preloadedState: { feedback: open } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(store.getState().feedback.shouldPrompt).toBe(false);
  });
});
