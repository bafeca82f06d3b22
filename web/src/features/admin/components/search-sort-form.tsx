/** The search box with its sort field and order above an administrators' list (users, posts). */
import { useState, type FormEvent } from 'react';

export interface SortChange {
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

export function SearchSortForm({
  idPrefix,
  label,
  placeholder,
  initialSearch,
  sortFields,
  sortField,
  sortOrder,
  onSearch,
  onSort,
}: {
  idPrefix: string;
  label: string;
  placeholder: string;
  initialSearch: string;
  sortFields: readonly (readonly [string, string])[];
  sortField: string;
  sortOrder: 'asc' | 'desc';
  onSearch: (search: string) => void;
  onSort: (change: SortChange) => void;
}) {
  const [search, setSearch] = useState(initialSearch);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(search.trim());
  };
  return (
    <form className="inline-form" role="search" onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${idPrefix}-search`}>{label}</label>
        <input id={`${idPrefix}-search`} type="search" placeholder={placeholder} value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-sort`}>Sort by</label>
        <select id={`${idPrefix}-sort`} value={sortField} onChange={(e) => onSort({ sortField: e.target.value })}>
          {sortFields.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-order`}>Order</label>
        <select id={`${idPrefix}-order`} value={sortOrder} onChange={(e) => onSort({ sortOrder: e.target.value as 'asc' | 'desc' })}>
          <option value="asc">Ascending</option>
          <option value="desc">Descending</option>
        </select>
      </div>
      <button type="submit" className="button button--small">
        Search
      </button>
    </form>
  );
}
