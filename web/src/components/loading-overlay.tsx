export function LoadingOverlay({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading-overlay" role="status" aria-live="polite" data-testid="loading-overlay">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <span role="status" className="inline-spinner">
      <span className="spinner spinner--small" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
