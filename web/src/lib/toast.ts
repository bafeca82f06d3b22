/** A tiny toast queue outside the store, so middleware, thunks and components can all raise one. */
export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  message: string;
  kind: ToastKind;
  /** Milliseconds before it closes by itself; 0 keeps it until dismissed. */
  duration: number;
}

type Listener = (toasts: Toast[]) => void;

const DEFAULT_DURATION_MS = 4000;
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function publish() {
  for (const listener of listeners) listener(toasts);
}

export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  toasts = toasts.filter((t) => t.id !== id);
  publish();
}

export function showToast(message: string, kind: ToastKind = 'info', duration = DEFAULT_DURATION_MS): number {
  const id = nextId++;
  toasts = [...toasts, { id, message, kind, duration }];
  if (duration > 0) timers.set(id, setTimeout(() => dismissToast(id), duration));
  publish();
  return id;
}

export const toast = Object.assign((message: string) => showToast(message, 'info'), {
  info: (message: string) => showToast(message, 'info'),
  success: (message: string) => showToast(message, 'success'),
  error: (message: string) => showToast(message, 'error'),
});

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  listener(toasts);
  return () => {
    listeners.delete(listener);
  };
}

export function currentToasts(): Toast[] {
  return toasts;
}

/** Test helper: forget every toast. */
export function clearToasts(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  toasts = [];
  publish();
}
