/**
 * The bell beside Follow: a menu of how the reader hears of this author's new posts (instant,
 * digest, off). Shown only while the reader follows the author. Keyboard: Enter/Space opens, the
 * arrow keys move between the choices, Escape closes and returns to the bell.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useAppSelector } from '@/app/hooks';
import { BellIcon } from '@/components/icons';
import { useClickOutside } from '@/components/use-click-outside';
import { toast } from '@/lib/toast';
import { selectFollowStatus } from '../follows-slice';
import { ALERT_MODES, fetchAlerts, saveAlerts, type AlertMode } from '../alerts';

export function AlertsMenu({ authorId, authorName }: { authorId: string; authorName: string }) {
  const me = useAppSelector((state) => state.auth.user?._id ?? null);
  const following = useAppSelector((state) => selectFollowStatus(state, authorId)?.isFollowing ?? false);
  const [mode, setMode] = useState<AlertMode | null>(null);
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const menuId = useId();
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

  const close = useCallback(() => setOpen(false), []);
  useClickOutside(root, close, open);
  useEffect(() => {
    if (!open) return;
    const current = Math.max(0, ALERT_MODES.findIndex((m) => m.mode === mode));
    items.current[current]?.focus();
  }, [open, mode]);

  if (!visible) return null;
  const choose = async (next: AlertMode) => {
    setOpen(false);
    bell.current?.focus();
    if (next === mode) return;
    const before = mode;
    setMode(next);
    setSaving(true);
    try {
      setMode(await saveAlerts(authorId, next));
      toast.success(next === 'off' ? `Alerts from ${authorName} are off.` : `Alerts from ${authorName} saved.`);
    } catch (e) {
      setMode(before);
      toast.error(e instanceof Error ? e.message : 'Failed to change alerts');
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
  const label = ALERT_MODES.find((m) => m.mode === mode)?.label ?? 'All new posts';
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
        title={`New posts from ${authorName}: ${label}`}
        onClick={() => !saving && setOpen((o) => !o)}
      >
        <BellIcon size={18} />
        <span className="visually-hidden">
          Alerts for new posts from {authorName}: {label}
        </span>
      </button>
      {open ? (
        // Arrow keys bubble up from the focused item (roving focus): the menu itself is not a stop.
        // eslint-disable-next-line jsx-a11y/interactive-supports-focus
        <div className="alerts-menu__list" role="menu" id={menuId} aria-label={`New posts from ${authorName}`} onKeyDown={onMenuKey}>
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
