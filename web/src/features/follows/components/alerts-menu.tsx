/**
 * The bell beside Following: a menu of how the reader hears of what they follow (instant, digest,
 * off). `AlertsMenu` is the control itself, for anything followed (an author, a series): the
 * caller holds the mode and saves a choice; the menu says "saved" or shows the server's refusal
 * in a toast. `AuthorAlertsMenu` serves an author, shown only while the reader follows them.
 * Keyboard: Enter/Space opens, the arrow keys move between the choices, Escape closes and returns
 * to the bell.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useAppSelector } from '@/app/hooks';
import { BellIcon } from '@/components/icons';
import { useClickOutside } from '@/components/use-click-outside';
import { toast } from '@/lib/toast';
import { selectFollowStatus } from '../follows-slice';
import { ALERT_MODES, ALERTS_FALLBACK, fetchAlerts, saveAlerts, type AlertMode } from '../alerts';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export type AlertsMenuProps = {
  /** The current mode; null while it is not known yet (the bell waits). */
  mode: AlertMode | null;
  /** Who or what is followed, for the toasts: "Alerts from {name} saved." */
  name: string;
  /** What the alerts are about, in lower case: "new posts from Wren", "new parts of The Long Walk". */
  about: string;
  /**
   * Saves a choice. The caller shows it at once and, when the server refuses, puts the previous
   * mode back and rejects with the server's message.
   */
  onChoose: (mode: AlertMode) => Promise<void>;
};

export function AlertsMenu({ mode, name, about, onChoose }: AlertsMenuProps) {
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const menuId = useId();

  const close = useCallback(() => setOpen(false), []);
  useClickOutside(root, close, open);
  useEffect(() => {
    if (!open) return;
    const current = Math.max(0, ALERT_MODES.findIndex((m) => m.mode === mode));
    items.current[current]?.focus();
  }, [open, mode]);

  const choose = async (next: AlertMode) => {
    setOpen(false);
    bell.current?.focus();
    if (next === mode) return;
    setSaving(true);
    try {
      await onChoose(next);
      toast.success(next === 'off' ? `Alerts from ${name} are off.` : `Alerts from ${name} saved.`);
    } catch (e) {
      toast.error(e instanceof Error ? e.message : ALERTS_FALLBACK);
    } finally {
      setSaving(false);
    }
  };
  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.current.findIndex((el) => el === document.activeElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items.current[(index + step + ALERT_MODES.length) % ALERT_MODES.length]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      bell.current?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };
  const label = ALERT_MODES.find((m) => m.mode === mode)?.label ?? ALERT_MODES[0].label;
  return (
    <div className="alerts-menu" ref={root}>
      <button
        ref={bell}
        type="button"
        className={`button button--small button--ghost alerts-menu__bell ${mode === 'off' ? 'alerts-menu__bell--off' : ''}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={mode === null}
        aria-busy={saving}
        data-testid="alerts-bell"
        title={`${capitalised(about)}: ${label}`}
        onClick={() => !saving && setOpen((o) => !o)}
      >
        <BellIcon size={18} />
        <span className="visually-hidden">
          Alerts for {about}: {label}
        </span>
      </button>
      {open ? (
        // Arrow keys bubble up from the focused item (roving focus): the menu itself is not a stop.
        // eslint-disable-next-line jsx-a11y/interactive-supports-focus
        <div className="alerts-menu__list" role="menu" id={menuId} aria-label={capitalised(about)} onKeyDown={onMenuKey}>
          {ALERT_MODES.map((m, i) => (
            <button
              key={m.mode}
              ref={(el) => {
                items.current[i] = el;
              }}
              type="button"
              role="menuitemradio"
              aria-checked={mode === m.mode}
              tabIndex={-1}
              className="alerts-menu__item"
              data-testid={`alerts-${m.mode}`}
              onClick={() => void choose(m.mode)}
            >
              <span className="alerts-menu__label">
                {mode === m.mode ? '✓ ' : ''}
                {m.label}
              </span>
              <span className="alerts-menu__hint muted small">{m.hint}</span>
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The bell for an author's new posts (`/api/follow/alerts/{authorId}`), while the reader follows them. */
export function AuthorAlertsMenu({ authorId, authorName }: { authorId: string; authorName: string }) {
  const me = useAppSelector((state) => state.auth.user?._id ?? null);
  const following = useAppSelector((state) => selectFollowStatus(state, authorId)?.isFollowing ?? false);
  const [mode, setMode] = useState<AlertMode | null>(null);
  const visible = me !== null && me !== authorId && following;

  useEffect(() => {
    if (!visible) return;
    let live = true;
    fetchAlerts(authorId)
      .then((m) => live && setMode(m ?? 'instant'))
      .catch(() => live && setMode('instant'));
    return () => {
      live = false;
    };
  }, [authorId, visible]);

  if (!visible) return null;
  const choose = async (next: AlertMode) => {
    const before = mode;
    setMode(next);
    try {
      setMode(await saveAlerts(authorId, next));
    } catch (e) {
      setMode(before);
      throw e;
    }
  };
  return <AlertsMenu mode={mode} name={authorName} about={`new posts from ${authorName}`} onChoose={choose} />;
}
