import { Link, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDate } from '@/lib/format';
import type { Block } from '@/types/entities';
import { pollFromBlock, selectPoll, votePoll } from '../interactions-slice';

/**
 * A poll in a post: readers vote (again to change it; each option toggles in a multiple-choice
 * poll), then see counts and percentages with their choice marked. A closed poll is read-only.
 */
export function PollBlock({ postId, block }: { postId: string; block: Block }) {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const isAuthenticated = useAppSelector((state) => state.auth.isAuthenticated);
  const poll = useAppSelector((state) => selectPoll(state, postId, block.id)) ?? pollFromBlock(postId, block);
  const mine = new Set(poll.multiple ? poll.userVotes : poll.userVote !== null ? [poll.userVote] : []);
  const voted = mine.size > 0;
  const showResults = voted || poll.closed || !isAuthenticated;
  const questionId = `poll-${block.id}-question`;

  return (
    <section className="poll" aria-labelledby={questionId} data-testid="poll">
      <h3 id={questionId} className="poll__question">
        {poll.question}
      </h3>
      <p className="poll__meta muted">
        {poll.multiple ? 'Choose any number of options.' : 'Choose one option.'}{' '}
        {poll.closed ? 'This poll is closed.' : poll.closesAt ? `Closes ${formatDate(poll.closesAt)}.` : null}
      </p>
      <ul className="poll__options">
        {poll.options.map((option, index) => {
          const percent = poll.totalVotes > 0 ? Math.round((option.votes / poll.totalVotes) * 100) : 0;
          const chosen = mine.has(index);
          return (
            <li key={index}>
              <button
                type="button"
                className={`poll__option ${chosen ? 'poll__option--chosen' : ''}`}
                aria-pressed={chosen}
                disabled={!isAuthenticated || poll.closed || poll.voting}
                onClick={() => void dispatch(votePoll({ postId, blockId: block.id, optionIndex: index }))}
              >
                {showResults ? <span className="poll__bar" style={{ width: `${percent}%` }} aria-hidden="true" /> : null}
                <span className="poll__text">
                  {option.text}
                  {chosen ? <span className="poll__mine"> (your vote)</span> : null}
                </span>
                {showResults ? (
                  <span className="poll__result">
                    {percent}% · {option.votes} {option.votes === 1 ? 'vote' : 'votes'}
                  </span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
      <p className="poll__total muted" role="status">
        {poll.totalVotes} {poll.totalVotes === 1 ? 'vote' : 'votes'}
        {voted && !poll.closed ? ' · choose another option to change your vote' : ''}
      </p>
      {poll.error ? (
        <p className="form-error" role="alert">
          {poll.error}
        </p>
      ) : null}
      {!isAuthenticated && !poll.closed ? (
        <p className="muted">
          <Link to="/login" state={{ from: location.pathname }}>
            Log in
          </Link>{' '}
          to vote.
        </p>
      ) : null}
    </section>
  );
}
