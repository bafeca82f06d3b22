import { useRef, type KeyboardEvent } from 'react';

export interface TabItem {
  id: string;
  label: string;
}

/**
 * A row of tabs (the WAI-ARIA tabs pattern): arrow keys move between them, only the active one
 * is in the tab order. Each tab controls `panel-{id}`, labelled by `tab-{id}`.
 */
export function TabList({ label, tabs, active, onChoose }: { label: string; tabs: TabItem[]; active: string; onChoose: (id: string) => void }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const onKeyDown = (event: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === active);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = tabs[(i + step + tabs.length) % tabs.length];
    onChoose(next.id);
    refs.current[next.id]?.focus();
  };
  return (
    // Arrow keys bubble up from the focused tab (roving focus): the list itself is not a stop.
    // eslint-disable-next-line jsx-a11y/interactive-supports-focus
    <div role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.id}
          ref={(el) => (refs.current[tab.id] = el)}
          type="button"
          role="tab"
          id={`tab-${tab.id}`}
          aria-controls={`panel-${tab.id}`}
          aria-selected={tab.id === active}
          tabIndex={tab.id === active ? 0 : -1}
          className={`tab ${tab.id === active ? 'tab--active' : ''}`}
          onClick={() => onChoose(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
