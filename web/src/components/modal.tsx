import { CloseIcon } from './icons';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

interface ModalProps {
  title: string;
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** Hide the heading visually (still read by assistive technology). */
  hideTitle?: boolean;
}

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
  '[contenteditable="true"]',
].join(', ');

/** The elements Tab reaches inside `root`, in order. */
export function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.closest('[inert]') && el.getAttribute('aria-hidden') !== 'true');
}

/** Open dialogs, innermost last: only the top one answers Escape and Tab. */
const openDialogs: HTMLElement[] = [];

/** The focused element while a dialog first renders: what opened it (none when focus is on the page body). */
function focusedOutside(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

/**
 * The one dialog of the app: focus moves into it (its first field, else its first control), Tab
 * and Shift+Tab cycle inside it, Escape, the close button and a press outside close it, focus
 * goes back to what opened it however it closes, the page behind is inert (neither clicked,
 * focused nor read) and does not scroll.
 */
export function Modal({ title, labelledBy, onClose, children, className, hideTitle }: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const backdropRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  // Taken on the first render, before a field inside with autoFocus takes focus on mount (which
  // happens before the effect below runs, and would otherwise be taken for the opener).
  const [opener] = useState(focusedOutside);

  useEffect(() => {
    const dialog = dialogRef.current!;
    const backdrop = backdropRef.current!;
    openDialogs.push(dialog);

    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    // Everything beside this dialog's backdrop becomes inert (and was not inert before).
    const madeInert: HTMLElement[] = [];
    for (const sibling of Array.from(document.body.children)) {
      if (sibling === backdrop || !(sibling instanceof HTMLElement) || sibling.hasAttribute('inert')) continue;
      if (sibling.tagName === 'SCRIPT' || sibling.tagName === 'STYLE') continue;
      sibling.setAttribute('inert', '');
      madeInert.push(sibling);
    }

    const onKey = (event: KeyboardEvent) => {
      if (openDialogs[openDialogs.length - 1] !== dialog) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusableIn(dialog);
      if (items.length === 0) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !dialog.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);

    const field = dialog.querySelector<HTMLElement>('input:not([disabled]):not([type="hidden"]), textarea:not([disabled]), select:not([disabled])');
    const target = field ?? focusableIn(dialog).find((el) => !el.hasAttribute('data-close')) ?? dialog;
    target.focus();

    return () => {
      document.body.style.overflow = previousOverflow;
      document.removeEventListener('keydown', onKey);
      for (const el of madeInert) el.removeAttribute('inert');
      const at = openDialogs.indexOf(dialog);
      if (at >= 0) openDialogs.splice(at, 1);
      if (opener && opener.isConnected) opener.focus();
    };
  }, [opener]);

  return createPortal(
    // A pointer press on the backdrop closes; from the keyboard, Escape does (handled above). The
    // press does not move focus itself, so focus stays where closing put it (back on the opener).
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div
      ref={backdropRef}
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target !== e.currentTarget) return;
        e.preventDefault();
        onClose();
      }}
    >
      <div
        ref={dialogRef}
        className={`modal ${className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        tabIndex={-1}
      >
        <div className="modal__header">
          <h2 id={labelledBy} className={hideTitle ? 'visually-hidden' : 'modal__title'}>
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label="Close" data-close onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
