/** A stand-in for socket.io-client's Socket, driven by tests. */
type Listener = (...args: unknown[]) => void;

class Emitter {
  private listeners = new Map<string, Set<Listener>>();
  on(event: string, listener: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }
  off(event: string, listener: Listener) {
    this.listeners.get(event)?.delete(listener);
    return this;
  }
  removeAllListeners() {
    this.listeners.clear();
    return this;
  }
  /** Test side: deliver an event as if the server (or the manager) sent it. */
  fire(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
}

export class FakeSocket extends Emitter {
  connected = false;
  emitted: unknown[][] = [];
  io = new Emitter();
  disconnected = false;
  /** Whether the client is still trying to (re)connect. */
  active = true;
  connectCalls = 0;
  constructor(readonly options: Record<string, unknown>) {
    super();
  }
  emit(...args: unknown[]) {
    this.emitted.push(args);
    return this;
  }
  disconnect() {
    this.connected = false;
    this.disconnected = true;
    this.active = false;
    return this;
  }
  connect() {
    this.connectCalls += 1;
    this.active = true;
    return this;
  }
  /** Test side: simulate a successful connection. */
  serverConnect() {
    this.connected = true;
    this.fire('connect');
  }
}

export const fakeSockets: FakeSocket[] = [];

export function createFakeIo() {
  return (options: Record<string, unknown>) => {
    const socket = new FakeSocket(options);
    fakeSockets.push(socket);
    return socket;
  };
}

export function lastFakeSocket(): FakeSocket {
  const socket = fakeSockets[fakeSockets.length - 1];
  if (!socket) throw new Error('no socket was opened');
  return socket;
}
