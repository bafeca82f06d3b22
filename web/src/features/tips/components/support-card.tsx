/**
 * "Support this post": a reader thanks the writer with a one-off payment. Suggested amounts are a
 * radio group with "Other amount" (typed in major units, checked against the post's minimum and
 * maximum, sent in minor units); an optional message (280 characters, counted); whether their
 * name shows on the supporters list; the platform's fee and what the writer receives before
 * paying. Pay is disabled while the tip is sent (the slice drops a second send too). Shown only
 * when the server says the post can be tipped; its writer sees why it cannot.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useGetTipsOptionsByPostIdQuery } from '@/api/endpoints';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatMoney } from '@/lib/money';
import type { Post } from '@/types/entities';
import { amountProblem, draftAmount, tipSplit } from '../tip-amounts';
import { OWN_POST_REASON, SIGN_IN_REASON, TIP_MESSAGE_MAX, type TipOptions } from '../tips-api';
import { editTipDraft, openTipDraft, selectTipDraft, selectTipSend, sendTip, tipFormReset } from '../tips-slice';
import '../tips.css';

export type TipPost = Pick<Post, '_id' | 'title'> & { author?: Post['author'] };

function TestMode({ mode }: { mode: string }) {
  if (mode !== 'test') return null;
  return (
    <span className="test-mode-badge" role="note">
      test mode — no real money
    </span>
  );
}

function TipForm({ post, options }: { post: TipPost; options: TipOptions }) {
  const dispatch = useAppDispatch();
  const id = useId();
  const draft = useAppSelector((s) => selectTipDraft(s, post._id));
  const send = useAppSelector((s) => selectTipSend(s, post._id));
  const [problem, setProblem] = useState<string | null>(null);
  const { currency, minimum, maximum, platformFeePercent } = options;
  const writer = post.author?.name ?? 'The writer';
  const sending = send.status === 'sending';
  const amount = draftAmount(draft, currency);
  const valid = amountProblem(amount, { currency, minimum, maximum }) === null;
  const split = amount !== null && valid ? tipSplit(amount, platformFeePercent) : null;

  useEffect(() => {
    void dispatch(openTipDraft(post._id));
  }, [dispatch, post._id]);

  const edit = (changes: Parameters<typeof editTipDraft>[0]['changes']) => {
    setProblem(null);
    void dispatch(editTipDraft({ postId: post._id, changes }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wrong = amountProblem(amount, { currency, minimum, maximum }, draft.choice === 'other');
    if (wrong || amount === null) {
      setProblem(wrong);
      if (draft.choice === 'other') document.getElementById(`${id}-other`)?.focus();
      return;
    }
    void dispatch(sendTip({ postId: post._id, amount, currency }));
  };

  if (send.status === 'succeeded') {
    return (
      <div className="support-card__done" role="status" data-testid="tip-success">
        <p className="support-card__thanks">{send.message}</p>
        {send.tip ? (
          <p className="muted">
            {formatMoney(send.tip.amount, send.tip.currency)} to {writer}
            {send.tip.public ? ', with your name on the supporters list.' : '.'}
          </p>
        ) : null}
        <button type="button" className="button button--small button--ghost" onClick={() => dispatch(tipFormReset(post._id))}>
          Send another tip
        </button>
      </div>
    );
  }

  const shownProblem = problem ?? send.error;
  return (
    <form className="support-card__form" onSubmit={submit} aria-busy={sending} noValidate>
      <fieldset className="support-card__amounts">
        <legend>Amount</legend>
        <div className="amount-options">
          {options.suggestedAmounts.map((value) => (
            <label key={value} className={`amount-option ${draft.choice === value ? 'amount-option--chosen' : ''}`}>
              <input type="radio" name={`${id}-amount`} value={value} checked={draft.choice === value} disabled={sending} onChange={() => edit({ choice: value })} />
              {formatMoney(value, currency)}
            </label>
          ))}
          <label className={`amount-option ${draft.choice === 'other' ? 'amount-option--chosen' : ''}`}>
            <input type="radio" name={`${id}-amount`} value="other" checked={draft.choice === 'other'} disabled={sending} onChange={() => edit({ choice: 'other' })} />
            Other amount
          </label>
        </div>
        {draft.choice === 'other' ? (
          <div className="field support-card__other">
            <label htmlFor={`${id}-other`}>Other amount ({currency.toUpperCase()})</label>
            <input
              id={`${id}-other`}
              inputMode="decimal"
              autoComplete="off"
              value={draft.other}
              disabled={sending}
              aria-invalid={problem !== null}
              aria-describedby={`${id}-other-hint`}
              onChange={(e) => edit({ other: e.target.value })}
            />
            <small id={`${id}-other-hint`} className="muted">
              From {formatMoney(minimum, currency)} to {formatMoney(maximum, currency)}.
            </small>
          </div>
        ) : null}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-message`}>Message (optional)</label>
        <textarea
          id={`${id}-message`}
          rows={2}
          maxLength={TIP_MESSAGE_MAX}
          value={draft.message}
          disabled={sending}
          aria-describedby={`${id}-count`}
          onChange={(e) => edit({ message: e.target.value.slice(0, TIP_MESSAGE_MAX) })}
        />
        <small id={`${id}-count`} className="muted support-card__count">
          {draft.message.length}/{TIP_MESSAGE_MAX} characters
        </small>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={draft.public} disabled={sending} onChange={(e) => edit({ public: e.target.checked })} /> Show my name on the supporters list
      </label>
      {split && amount !== null ? (
        <dl className="facts support-card__split" aria-label="What the payment is made of" data-testid="tip-split">
          <dt>You pay</dt>
          <dd>{formatMoney(amount, currency)}</dd>
          <dt>Platform fee ({platformFeePercent}%)</dt>
          <dd>{formatMoney(split.fee, currency)}</dd>
          <dt>{writer} receives</dt>
          <dd>{formatMoney(split.net, currency)}</dd>
        </dl>
      ) : null}
      <div className="support-card__status" aria-live="polite">
        {sending ? <p>Sending your tip...</p> : null}
        {draft.attempt && !sending && send.status !== 'failed' ? (
          <p className="muted small">Your last payment did not finish: Pay sends it again, and you are charged at most once.</p>
        ) : null}
      </div>
      {shownProblem ? (
        <p className="form-error" role="alert">
          {shownProblem}
        </p>
      ) : null}
      <div className="support-card__actions">
        <button type="submit" className="button" disabled={sending}>
          {sending ? 'Paying...' : amount !== null && valid ? `Pay ${formatMoney(amount, currency)}` : 'Pay'}
        </button>
      </div>
    </form>
  );
}

/** What the writer reads where readers see the card (the server refuses them their own post). */
function WriterNote({ options, writerId, placement }: { options: TipOptions; writerId: string; placement: 'body' | 'end' }) {
  if (options.reason !== OWN_POST_REASON) return <p className="muted">{options.reason}</p>;
  // The card under the post says it all; where the writer put one in the body, a reminder will do.
  if (placement === 'body') return <p className="muted">Signed-in readers see the support card here.</p>;
  const amounts = options.suggestedAmounts.map((a) => formatMoney(a, options.currency)).join(' · ');
  return (
    <p className="muted">
      Signed-in readers see a support card here once you accept tips{amounts ? `, with your suggested amounts ${amounts}` : ''}. Set them under{' '}
      <Link to={`/plans/${writerId}?tab=tips`}>Tips in Plans &amp; earnings</Link>.
    </p>
  );
}

/**
 * The support card of a post; `placement` says whether it sits in the body or under the post.
 * A signed-out reader of a post that can be tipped is asked to log in.
 */
export function SupportCard({ post, placement }: { post: TipPost; placement: 'body' | 'end' }) {
  const location = useLocation();
  const titleId = useId();
  const { user, isAuthenticated } = useAppSelector((s) => s.auth);
  const { data: options } = useGetTipsOptionsByPostIdQuery({ postId: post._id });
  const isWriter = Boolean(user && post.author && user._id === post.author._id);
  if (!options) return null;
  const askToLogIn = !isAuthenticated && (options.enabled || options.reason === SIGN_IN_REASON);
  if (!options.enabled && !askToLogIn) {
    if (!isWriter || !options.reason || !user) return null;
    return (
      <aside className="support-card support-card--off" aria-labelledby={titleId} data-testid="support-card" data-placement={placement}>
        <h2 id={titleId} className="support-card__title">
          Support this post
        </h2>
        <WriterNote options={options} writerId={user._id} placement={placement} />
      </aside>
    );
  }
  return (
    <section className="support-card" aria-labelledby={titleId} data-testid="support-card" data-placement={placement}>
      <div className="support-card__head">
        <h2 id={titleId} className="support-card__title">
          Support this post
        </h2>
        <TestMode mode={options.mode} />
      </div>
      <p className="muted">Thank {post.author?.name ?? 'the writer'} for this post with a one-off payment.</p>
      {askToLogIn ? (
        <p>
          <Link to="/login" state={{ from: location.pathname }}>
            Log in
          </Link>{' '}
          to support this post.
        </p>
      ) : (
        <TipForm post={post} options={options} />
      )}
    </section>
  );
}
