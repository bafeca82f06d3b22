import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Modal } from '@/components/modal';
import {
  FEEDBACK_DEFAULT_TITLE,
  FEEDBACK_THANKS,
  FEEDBACK_THANKS_MS,
  feedbackClosed,
  selectFeedback,
  submitFeedback,
} from './feedback-slice';

const STARS = [1, 2, 3, 4, 5];

export function FeedbackModal() {
  const dispatch = useAppDispatch();
  const { shouldPrompt, submitting, submitted, promptMessage, error } = useAppSelector(selectFeedback);
  const [rating, setRating] = useState(0);
  const [message, setMessage] = useState('');

  const reset = () => {
    setRating(0);
    setMessage('');
  };

  useEffect(() => {
    if (!submitted) return;
    const timer = setTimeout(() => {
      dispatch(feedbackClosed());
      reset();
    }, FEEDBACK_THANKS_MS);
    return () => clearTimeout(timer);
  }, [submitted, dispatch]);

  if (!shouldPrompt) return null;

  const close = () => {
    dispatch(feedbackClosed());
    reset();
  };
  const disabled = submitting || rating === 0 || message.trim() === '';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (disabled) return;
    void dispatch(submitFeedback({ rating, message }));
  };
  const title = promptMessage || FEEDBACK_DEFAULT_TITLE;

  return (
    <Modal title={title} onClose={close} labelledBy="feedback-title">
      {submitted ? (
        <p className="feedback-thanks" role="status">
          {FEEDBACK_THANKS}
        </p>
      ) : (
        <form onSubmit={onSubmit} className="form">
          <fieldset className="stars">
            <legend>Rating</legend>
            {STARS.map((star) => (
              <button
                key={star}
                type="button"
                className={`star ${star <= rating ? 'star--on' : ''}`}
                aria-label={`${star} star${star > 1 ? 's' : ''}`}
                aria-pressed={star <= rating}
                onClick={() => setRating(star)}
              >
                ★
              </button>
            ))}
          </fieldset>
          <label htmlFor="feedback-message">Your feedback</label>
          <textarea
            id="feedback-message"
            rows={4}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            placeholder="Tell us what you think"
          />
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="button" className="button button--ghost" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="button" disabled={disabled}>
              {submitting ? 'Sending...' : 'Submit'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
