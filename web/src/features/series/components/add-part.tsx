/**
 * Adds one of the writer's posts at the end of a series: chosen from their posts (drafts
 * included: the owner's list has them), newest first, found by words when there are many. Posts
 * already in this series are left out; those in another of their series are shown but cannot be
 * chosen (a post belongs to one series).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { FormError } from '@/components/form-field';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import type { Post } from '@/types/entities';
import { putSeries } from '../my-series-cache';
import { useAddSeriesPartMutation, useGetUserPostsQuery } from '../series-api';
import type { ManagedSeries } from '../series-types';

/** How many of the writer's posts the list offers (the newest, or those the words find). */
export const POSTS_OFFERED = 50;
const SEARCH_DELAY_MS = 300;

/** The option's text: the title, and what is special about the post. */
export function postOption(post: Post, inOther: boolean): string {
  const notes = [post.status && post.status !== 'published' ? post.status : null, inOther ? 'in another series' : null].filter(Boolean);
  return notes.length > 0 ? `${post.title} (${notes.join(', ')})` : post.title;
}

export function AddPart({ series, userId, partOf }: { series: ManagedSeries; userId: string; partOf: Map<string, string> }) {
  const dispatch = useAppDispatch();
  const id = useId();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [add, { isLoading: busy }] = useAddSeriesPartMutation();
  const { data, error: listError, isFetching, refetch } = useGetUserPostsQuery({ userId, limit: String(POSTS_OFFERED), search: search || undefined });

  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  // The words field shows when the list cannot offer every post at once.
  const many = (data?.total ?? 0) > POSTS_OFFERED || typed !== '' || search !== '';
  const inThis = new Set(series.parts.map((p) => p._id));
  const offered = (data?.posts ?? []).filter((p) => !inThis.has(p._id));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!chosen) {
      setError('Choose one of your posts.');
      return;
    }
    try {
      const answer = await add({ series: series._id, body: { postId: chosen } }).unwrap();
      dispatch(putSeries(answer.series));
      setChosen('');
      toast.success(answer.message);
    } catch (e) {
      setError(errorMessage(e, 'Could not add the post'));
    }
  };

  let choice;
  if (listError && !data) {
    choice = (
      <p className="form-error" role="alert">
        {errorMessage(listError, 'Could not load your posts')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  } else if (!data) {
    choice = (
      <p className="muted small" role="status">
        Loading your posts...
      </p>
    );
  } else if (data.posts.length === 0 && !search) {
    choice = (
      <p className="muted small">
        You have no posts yet. <Link to="/createPost">Write one</Link>, then add it here.
      </p>
    );
  } else {
    choice = (
      <div className="field">
        <label htmlFor={`${id}-post`}>Post</label>
        <select id={`${id}-post`} value={chosen} onChange={(e) => setChosen(e.target.value)} aria-busy={isFetching}>
          <option value="">{offered.length > 0 ? 'Choose a post' : search ? 'No posts found' : 'No other posts to add'}</option>
          {offered.map((post) => {
            const other = partOf.get(post._id);
            const inOther = Boolean(other && other !== series._id);
            return (
              <option key={post._id} value={post._id} disabled={inOther}>
                {postOption(post, inOther)}
              </option>
            );
          })}
        </select>
      </div>
    );
  }

  return (
    <form className="form add-part" aria-label={`Add a post to ${series.title}`} onSubmit={(event) => void submit(event)}>
      <h3 className="add-part__title">Add a post</h3>
      <div className="add-part__row">
        {many ? (
          <div className="field">
            <label htmlFor={`${id}-find`}>Find a post</label>
            <input id={`${id}-find`} type="search" autoComplete="off" placeholder="Words from the title" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
        ) : null}
        {choice}
        <button type="submit" className="button button--small add-part__submit" disabled={busy || !data || offered.length === 0}>
          {busy ? 'Adding...' : 'Add to series'}
        </button>
      </div>
      <FormError message={error} />
    </form>
  );
}
