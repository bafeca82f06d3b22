/** Previous / next through a numbered list, with "Page X of Y". */
export function Pager({ page, totalPages, onPage, label, disabled }: { page: number; totalPages: number; onPage: (page: number) => void; label: string; disabled?: boolean }) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="button button--small button--ghost" disabled={disabled || page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {totalPages}
      </span>
      <button type="button" className="button button--small button--ghost" disabled={disabled || page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
