import { useEffect, useId, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { searchAllUsers, selectAdmin } from '../admin-slice';
import type { AdminUser } from '../admin-types';

const SEARCH_DELAY_MS = 300;

/**
 * Finds a user by name or email (administrators' user search) and reports the one chosen. A
 * labelled search field with the matches as a list of buttons.
 */
export function UserPicker({ label, value, onChange }: { label: string; value: AdminUser | null; onChange: (user: AdminUser | null) => void }) {
  const dispatch = useAppDispatch();
  const { allUsers } = useAppSelector(selectAdmin);
  const [text, setText] = useState('');
  const id = useId();

  useEffect(() => {
    const query = text.trim();
    if (query.length < 2) return;
    const timer = setTimeout(() => void dispatch(searchAllUsers(query)), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [dispatch, text]);

  if (value) {
    return (
      <div className="field">
        <span className="field__label">{label}</span>
        <div className="picked-user">
          <span>
            <strong>{value.name}</strong> <span className="muted">{value.email}</span>
          </span>
          <button type="button" className="link-button" onClick={() => onChange(null)}>
            Change
          </button>
        </div>
      </div>
    );
  }
  const matches = text.trim().length >= 2 ? allUsers : [];
  return (
    <div className="field">
      <label htmlFor={`picker-${id}`}>{label}</label>
      <input id={`picker-${id}`} type="search" placeholder="Name or email" value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" />
      {matches.length > 0 ? (
        <ul className="picker-list" aria-label={`${label}: matches`}>
          {matches.map((u) => (
            <li key={u._id}>
              <button type="button" className="picker-option" onClick={() => onChange(u)}>
                <strong>{u.name}</strong> <span className="muted">{u.email}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
