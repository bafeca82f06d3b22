import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { relativeTime } from '@/lib/format';
import { fetchContactMessages, replyToContact, selectAdmin, toggleMessageHandled } from '../admin-slice';
import type { ContactMessage } from '../admin-types';
import { ListState } from '../components/list-state';
import { Pager } from '../../../components/pager';

function ReplyForm({ message, onDone }: { message: ContactMessage; onDone: () => void }) {
  const dispatch = useAppDispatch();
  const [subject, setSubject] = useState(`Re: ${message.subject}`);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!subject.trim() || !text.trim()) return;
    setBusy(true);
    setError(null);
    const result = await dispatch(replyToContact({ id: message._id, subject: subject.trim(), message: text.trim() }));
    setBusy(false);
    if (replyToContact.fulfilled.match(result)) onDone();
    else setError(result.payload ?? 'Failed to reply to contact message');
  };
  return (
    <form className="form reply-form" onSubmit={(e) => void submit(e)} aria-label={`Reply to ${message.name}`}>
      <div className="field">
        <label htmlFor={`reply-subject-${message._id}`}>Subject</label>
        <input id={`reply-subject-${message._id}`} value={subject} maxLength={200} required onChange={(e) => setSubject(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`reply-message-${message._id}`}>Message</label>
        <textarea id={`reply-message-${message._id}`} rows={4} maxLength={5000} required value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row">
        <button type="submit" className="button button--small" disabled={busy || !subject.trim() || !text.trim()}>
          {busy ? 'Sending...' : `Send reply to ${message.email}`}
        </button>
        <button type="button" className="button button--small button--ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ContactSection() {
  const dispatch = useAppDispatch();
  const { contactMessages } = useAppSelector(selectAdmin);
  const [replying, setReplying] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);

  useEffect(() => {
    void dispatch(fetchContactMessages(1));
  }, [dispatch]);

  const toggle = async (id: string) => {
    setPending(id);
    await dispatch(toggleMessageHandled(id));
    setPending(null);
  };
  const list = contactMessages;
  return (
    <>
      <p className="muted list-count">
        {list.total} messages · new ones appear here as they arrive
      </p>
      <ListState status={list.status} error={list.error} count={list.items.length} emptyText="No contact messages yet." onRetry={() => void dispatch(fetchContactMessages())} />
      <ul className="card-list" aria-label="Contact messages" aria-live="polite">
        {list.items.map((m) => (
          <li key={m._id} className={`card ${m.isHandled ? '' : 'card--unread'}`}>
            <div className="card__head">
              <div>
                <strong>{m.subject}</strong>
                <div className="muted small">
                  {m.name} &lt;{m.email}&gt; · <time dateTime={m.createdAt}>{relativeTime(m.createdAt)}</time>
                  {m.userId ? ' · signed in' : ' · guest'}
                </div>
              </div>
              <span className={`chip ${m.isHandled ? 'chip--ok' : 'chip--info'}`}>{m.isHandled ? (m.reply ? 'replied' : 'handled') : 'new'}</span>
            </div>
            <p className="card__text">{m.message}</p>
            {m.reply?.message ? (
              <blockquote className="card__reply">
                <strong>{m.reply.subject}</strong>
                <p>{m.reply.message}</p>
              </blockquote>
            ) : null}
            {replying === m._id ? (
              <ReplyForm message={m} onDone={() => setReplying(null)} />
            ) : (
              <div className="button-row">
                <button type="button" className="button button--small" onClick={() => setReplying(m._id)}>
                  Reply
                </button>
                <button type="button" className="button button--small button--ghost" disabled={pending === m._id} onClick={() => void toggle(m._id)}>
                  {m.isHandled ? 'Mark as not handled' : 'Mark as handled'}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <Pager label="Contact messages" page={list.page} totalPages={list.totalPages} onPage={(page) => void dispatch(fetchContactMessages(page))} disabled={list.status === 'loading'} />
    </>
  );
}
