import { CloseIcon, SearchIcon } from '@/components/icons';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { useClickOutside } from '@/components/use-click-outside';
import { MIN_SEARCH_LENGTH, runSearch, searchCleared, SEARCH_DEBOUNCE_MS, selectSearch } from '../search-slice';

export const SEARCH_PLACEHOLDER = 'Search articles or users...';

/** The header search: debounced 400 ms, dropdown with users first, then posts. */
export function SearchBox({ autoFocus, onDone }: { autoFocus?: boolean; onDone?: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { users, posts, status, error } = useAppSelector(selectSearch);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);

  useEffect(() => {
    const value = text.trim();
    const timer = setTimeout(() => {
      if (value.length < 1) {
        dispatch(searchCleared());
        setOpen(false);
      } else if (value.length >= MIN_SEARCH_LENGTH) {
        setOpen(true);
        void dispatch(runSearch(value));
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, dispatch]);

  const finish = (to: string) => {
    setOpen(false);
    onDone?.();
    navigate(to);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (value.length < MIN_SEARCH_LENGTH) return;
    finish(`/search?query=${encodeURIComponent(value)}`);
  };

  const clear = () => {
    setText('');
    dispatch(searchCleared());
    setOpen(false);
  };

  const empty = status === 'succeeded' && users.length === 0 && posts.length === 0;

  return (
    <div className="search" ref={ref}>
      <form role="search" className="search__form" onSubmit={submit}>
        <label htmlFor="site-search" className="visually-hidden">
          Search
        </label>
        <input
          id="site-search"
          type="search"
          className="search__input"
          placeholder={SEARCH_PLACEHOLDER}
          value={text}
          autoFocus={autoFocus}
          autoComplete="off"
          onChange={(e) => setText(e.target.value)}
          onFocus={() => text.trim().length >= MIN_SEARCH_LENGTH && setOpen(true)}
        />
        {text ? (
          <button type="button" className="search__clear icon-button" aria-label="Clear search" onClick={clear}>
            <CloseIcon size={16} />
          </button>
        ) : null}
        <button type="submit" className="search__submit icon-button" aria-label="Search">
          <SearchIcon size={18} />
        </button>
      </form>
      {open ? (
        <div className="dropdown search__dropdown" role="listbox" aria-label="Search results" style={{ maxHeight: 450 }}>
          {status === 'loading' ? <p className="dropdown__state">Loading...</p> : null}
          {status === 'failed' ? (
            <p className="dropdown__state dropdown__state--error" role="alert">
              Error: {error}
            </p>
          ) : null}
          {empty ? <p className="dropdown__state">No results found</p> : null}
          {status === 'succeeded'
            ? users.map((u) => (
                <button key={`u-${u._id}`} type="button" role="option" aria-selected="false" className="search-result" onClick={() => finish(`/author-profile/${u._id}`)}>
                  <Avatar name={u.name} src={u.avatar} size={32} />
                  <span className="search-result__body">
                    <span className="search-result__title">{u.name}</span>
                    {u.email ? <span className="search-result__meta">{u.email}</span> : null}
                    <span className="search-result__meta">Posts: {u.totalPosts ?? 0}</span>
                  </span>
                </button>
              ))
            : null}
          {status === 'succeeded'
            ? posts.map((p) => (
                <button key={`p-${p._id}`} type="button" role="option" aria-selected="false" className="search-result" onClick={() => finish(`/post/${p.slug}`)}>
                  <span className="search-result__title">{p.title}</span>
                </button>
              ))
            : null}
        </div>
      ) : null}
    </div>
  );
}
