/** Shown wherever money moves while the payment provider runs in test mode. */
export function TestModeBadge({ mode }: { mode: string | null | undefined }) {
  if (mode !== 'test') return null;
  return (
    <span className="test-mode-badge" role="note">
      test mode — no real money
    </span>
  );
}
