import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { socketEvents } from '@/features/socket';
import {
  checkFeedbackPrompt,
  feedbackClosed,
  feedbackReducer,
  feedbackRequested,
  initialFeedbackState,
  submitFeedback,
} from './feedback-slice';

describe('feedback state', () => {
  it('a prompt from the server opens it with the server message', () => {
    const state = feedbackReducer(initialFeedbackState, socketEvents.feedbackPromptReceived('Tell us!'));
    expect(state).toMatchObject({ shouldPrompt: true, promptMessage: 'Tell us!' });
  });

  it('a manual request opens it with the default title', () => {
    expect(feedbackReducer(initialFeedbackState, feedbackRequested())).toMatchObject({ shouldPrompt: true, promptMessage: null });
  });

  it('closing resets it', () => {
    const open = { ...initialFeedbackState, shouldPrompt: true, submitted: true, promptMessage: 'x' };
    expect(feedbackReducer(open, feedbackClosed())).toEqual(initialFeedbackState);
  });

  it('a check sets shouldPrompt from the server', async () => {
    mockApi.on('GET', '/user/feedback/check', { body: { shouldPrompt: true } });
    const store = setupStore();
    await store.dispatch(checkFeedbackPrompt());
    expect(store.getState().feedback.shouldPrompt).toBe(true);
  });

  it('a check answering false leaves open a prompt the reader asked for meanwhile', async () => {
    mockApi.on('GET', '/user/feedback/check', { body: { shouldPrompt: false } });
    const store = setupStore();
    const check = store.dispatch(checkFeedbackPrompt());
    store.dispatch(feedbackRequested());
    await check;
    expect(store.getState().feedback.shouldPrompt).toBe(true);
  });

  it('a failed check sets shouldPrompt to false', async () => {
    mockApi.on('GET', '/user/feedback/check', { status: 404 });
    const store = setupStore({ feedback: { ...initialFeedbackState, shouldPrompt: true } });
    const result = await store.dispatch(checkFeedbackPrompt());
    expect(result.payload).toBe('Failed to check feedback prompt');
    expect(store.getState().feedback.shouldPrompt).toBe(false);
  });

  it('submitting goes submitting → submitted', async () => {
    mockApi.on('POST', '/user/feedback/submit', { body: { success: true } });
    const store = setupStore();
    const pending = store.dispatch(submitFeedback({ rating: 4, message: ' Great ' }));
    expect(store.getState().feedback.submitting).toBe(true);
    await pending;
    expect(store.getState().feedback).toMatchObject({ submitting: false, submitted: true });
    expect(mockApi.calls('POST', '/user/feedback/submit')[0].body).toEqual({ rating: 4, message: 'Great' });
  });

  it("a failed submit shows 'Failed to submit feedback'", async () => {
    mockApi.on('POST', '/user/feedback/submit', { status: 500 });
    const store = setupStore();
    await store.dispatch(submitFeedback({ rating: 4, message: 'x' }));
    expect(store.getState().feedback).toMatchObject({ submitting: false, submitted: false, error: 'Failed to submit feedback' });
  });

  it('needs a non-empty message and a rating of 1 to 5', async () => {
    const store = setupStore();
    expect((await store.dispatch(submitFeedback({ rating: 0, message: 'x' }))).meta.requestStatus).toBe('rejected');
    expect((await store.dispatch(submitFeedback({ rating: 6, message: 'x' }))).meta.requestStatus).toBe('rejected');
    expect((await store.dispatch(submitFeedback({ rating: 3, message: '  ' }))).meta.requestStatus).toBe('rejected');
    expect(mockApi.calls('POST', '/user/feedback/submit')).toHaveLength(0);
  });
});
