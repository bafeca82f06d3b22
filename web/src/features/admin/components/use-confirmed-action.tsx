/**
 * An action that asks first, as every destructive or costly action of the dashboard does: `ask(x)`
 * opens the confirmation dialog (the app's `ConfirmDialog`: `role="dialog"`, `aria-modal`,
 * labelled by its title, focus kept inside, Escape or Cancel closes it, focus goes back to the
 * button that opened it); confirming runs `run(x)` once with the dialog busy (a double click does
 * not run it twice), then closes it. `dialog(render)` renders it, nothing while nobody is asked.
 */
import { useRef, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';

export interface Confirmation {
  title: string;
  confirmLabel: string;
  danger?: boolean;
  body: ReactNode;
}

export function useConfirmedAction<T>(run: (subject: T) => Promise<unknown>) {
  const [asked, setAsked] = useState<{ subject: T } | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const confirm = async () => {
    if (asked === null || running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await run(asked.subject);
    } finally {
      running.current = false;
      setBusy(false);
      setAsked(null);
    }
  };
  const dialog = (render: (subject: T) => Confirmation) => {
    if (asked === null) return null;
    const { title, confirmLabel, danger, body } = render(asked.subject);
    return (
      <ConfirmDialog title={title} confirmLabel={confirmLabel} danger={danger} busy={busy} onConfirm={() => void confirm()} onCancel={() => setAsked(null)}>
        {body}
      </ConfirmDialog>
    );
  };
  return { ask: (subject: T) => setAsked({ subject }), asking: asked !== null, busy, dialog };
}
