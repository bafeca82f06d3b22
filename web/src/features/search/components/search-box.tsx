import { CloseIcon, SearchIcon } from '@/components/icons';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { useClickOutside } from '@/components/use-click-outside';
import { MIN_SEARCH_LENGTH, runSearch, searchCleared, SEARCH_DEBOUNCE_MS, selectSearch } from '../search-slice';

export const SEARCH_PLACEHOLDER = 'Search articles or users...';

/** Shown when Enter or the search button is used with fewer than 3 characters. */
export const SEARCH_TOO_SHORT = `Type at least ${MIN_SEARCH_LENGTH} characters to search.`;

interface ResultOption {
  key: string;
  to: string;
  label: string;
}

/**
 * The header search (the WAI-ARIA combobox pattern): debounced 400 ms; a dropdown lists users
 * first, then posts. Arrow keys move through the results (the input keeps focus and names the
 * highlighted one with aria-activedescendant), Enter opens it, Escape closes the list. Under 3
 * characters the previous results are cleared and Enter says how many characters are needed.
 */
export function SearchBox({ autoFocus, onDone }: { autoFocus?: boolean; onDone?: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { users, posts, status, error } = useAppSelector(selectSearch);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [hint, setHint] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const baseId = useId();
  const listId = `${baseId}-results`;
  const close = useCallback(() => {
    setOpen(false);
    setActive(-1);
  }, []);
  useClickOutside(ref, close, open);

  useEffect(() => {
    const value = text.trim();
    if (value.length < MIN_SEARCH_LENGTH) {
      // Results of a longer, earlier query are not kept under a shorter one.
      setOpen(false);
      setActive(-1);
    }
    if (value.length >= MIN_SEARCH_LENGTH) setHint(null);
    const timer = setTimeout(() => {
      if (value.length < MIN_SEARCH_LENGTH) {
        dispatch(searchCleared());
      } else {
        setOpen(true);
        setActive(-1);
        void dispatch(runSearch(value));
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, dispatch]);

  const options: ResultOption[] =
    status === 'succeeded'
      ? [
          ...users.map((u) => ({ key: `u-${u._id}`, to: `/author-profile/${u._id}`, label: u.name })),
          ...posts.map((p) => ({ key: `p-${p._id}`, to: `/post/${p.slug}`, label: p.title })),
        ]
      : [];
  const showList = open && options.length > 0;
  const optionId = (i: number) => `${baseId}-option-${i}`;

  const finish = (to: string) => {
    close();
    onDone?.();
    navigate(to);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (value.length < MIN_SEARCH_LENGTH) {
      setHint(SEARCH_TOO_SHORT);
      return;
    }
    finish(`/search?query=${encodeURIComponent(value)}`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options.length === 0) return;
      event.preventDefault();
      if (!open) setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i < 0 ? (step > 0 ? 0 : options.length - 1) : (i + step + options.length) % options.length));
    } else if (event.key === 'Enter' && showList && active >= 0 && active < options.length) {
      event.preventDefault();
      finish(options[active].to);
    } else if (event.key === 'Escape' && open) {
      // Closes the list only (a dialog around the search box stays open).
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  const clear = () => {
    setText('');
    setHint(null);
    dispatch(searchCleared());
    close();
  };

  const empty = status === 'succeeded' && users.length === 0 && posts.length === 0;

  // Options are chosen from the keyboard in the combobox (aria-activedescendant, Enter).
  const option = (i: number, content: ReactNode, className = 'search-result') => (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events
    <li
      key={options[i].key}
      id={optionId(i)}
      role="option"
      aria-selected={i === active}
      className={`${className} ${i === active ? 'search-result--active' : ''}`}
      onMouseDown={(e) => e.preventDefault()}
      onMouseMove={() => setActive(i)}
      onClick={() => finish(options[i].to)}
    >
      {content}
    </li>
  );

  return (
    <div className="search" ref={ref}>
      <form role="search" className="search__form" onSubmit={submit}>
        <label htmlFor={`${baseId}-input`} className="visually-hidden">
          Search
        </label>
        <input
          id={`${baseId}-input`}
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
          aria-describedby={hint ? `${baseId}-hint` : undefined}
          className="search__input"
          placeholder={SEARCH_PLACEHOLDER}
          value={text}
          autoFocus={autoFocus}
          autoComplete="off"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
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
      {hint ? (
        <p id={`${baseId}-hint`} className="search__hint" role="status">
          {hint}
        </p>
      ) : null}
      {open ? (
        <div className="dropdown search__dropdown" data-testid="search-dropdown" style={{ maxHeight: 450 }}>
          {status === 'loading' ? (
            <p className="dropdown__state" role="status">
              Loading...
            </p>
          ) : null}
          {status === 'failed' ? (
            <p className="dropdown__state dropdown__state--error" role="alert">
              Error: {error}
            </p>
          ) : null}
          {empty ? (
            <p className="dropdown__state" role="status">
              No results found
            </p>
          ) : null}
          <ul id={listId} role="listbox" aria-label="Search results" className="search__results" hidden={!showList}>
            {users.length > 0 && status === 'succeeded'
              ? users.map((u, i) =>
                  option(
                    i,
                    <>
                      <Avatar name={u.name} src={u.avatar} size={32} />
                      <span className="search-result__body">
                        <span className="search-result__title">{u.name}</span>
                        {u.email ? <span className="search-result__meta">{u.email}</span> : null}
                        <span className="search-result__meta">Posts: {u.totalPosts ?? 0}</span>
                      </span>
                    </>,
                  ),
                )
              : null}
            {status === 'succeeded' ? posts.map((p, j) => option(users.length + j, <span className="search-result__title">{p.title}</span>)) : null}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
