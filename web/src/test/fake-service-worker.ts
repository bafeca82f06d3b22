/**
 * A service worker running the page, for unit tests of the offline queue (jsdom has none): what
 * the page sends it is kept; `say` delivers a message from the worker to the page. One per test
 * file (the page's code listens to the container it found first).
 */
export function installFakeServiceWorker() {
  const sent: unknown[] = [];
  const container = new EventTarget() as EventTarget & {
    controller: { postMessage(message: unknown): void } | null;
    getRegistration(): Promise<undefined>;
  };
  container.controller = { postMessage: (message: unknown) => sent.push(message) };
  container.getRegistration = () => Promise.resolve(undefined);
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  return {
    sent,
    /** No worker runs the page (`running(false)`), or one does again. */
    running(yes: boolean) {
      container.controller = yes ? { postMessage: (message: unknown) => sent.push(message) } : null;
    },
    say(data: unknown) {
      container.dispatchEvent(new MessageEvent('message', { data }));
    },
    uninstall() {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    },
  };
}
