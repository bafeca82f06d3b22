/**
 * Saving an existing post to the server while its author writes (`autosave: true` on
 * PATCH /api/post/update/{slug}), besides the local draft: at most once per period, and only when
 * the content changed since the last one sent.
 *
 * The period starts at the first change after the last automatic save, so a person typing
 * steadily is saved every ten minutes, and one change followed by a pause is saved ten minutes
 * later. Nothing is sent while the editor's own save is in flight (it is tried again shortly
 * after), nor while the editor holds it (its own save, the revision history being open), nor when
 * the content would be refused (`collect` answers null).
 */
export const AUTOSAVE_EVERY_MS = 10 * 60 * 1000;
/** When a due autosave met the editor's own save in flight: how long before it tries again. */
export const AUTOSAVE_RETRY_MS = 30 * 1000;

export interface AutosaverOptions<T> {
  /** What to send now, or null when there is nothing to send (content the server would refuse). */
  collect: () => Promise<T | null>;
  send: (body: T) => Promise<void>;
  /** Whether the editor's own save is in flight. */
  busy: () => boolean;
  onSaved?: (at: number) => void;
  onFailed?: (error: unknown) => void;
  everyMs?: number;
  retryMs?: number;
  now?: () => number;
}

export class Autosaver<T> {
  private readonly options: Required<Omit<AutosaverOptions<T>, 'onSaved' | 'onFailed'>> & Pick<AutosaverOptions<T>, 'onSaved' | 'onFailed'>;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** A change not sent yet. */
  private pending = false;
  private inFlight: Promise<void> | null = null;
  private held = false;
  private stopped = false;
  /** What was last sent (JSON), so the same content is never sent twice in a row. */
  private lastSent: string | null = null;

  constructor(options: AutosaverOptions<T>) {
    this.options = { everyMs: AUTOSAVE_EVERY_MS, retryMs: AUTOSAVE_RETRY_MS, now: () => Date.now(), ...options };
  }

  /** The author changed something. */
  changed(): void {
    if (this.stopped) return;
    this.pending = true;
    if (!this.timer && !this.inFlight && !this.held) this.schedule(this.options.everyMs);
  }

  /** Whether an automatic save is waiting for its time. */
  get scheduled(): boolean {
    return this.timer !== null;
  }

  private schedule(ms: number) {
    this.clear();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.fire();
    }, ms);
  }

  private clear() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async fire(): Promise<void> {
    if (this.stopped || this.held || !this.pending) return;
    if (this.options.busy() || this.inFlight) {
      this.schedule(this.options.retryMs);
      return;
    }
    this.pending = false;
    const run = this.run();
    this.inFlight = run;
    await run;
    this.inFlight = null;
    // Changes made while it was being sent wait for the next period.
    if (this.pending && !this.stopped && !this.held) this.schedule(this.options.everyMs);
  }

  private async run(): Promise<void> {
    try {
      const body = await this.options.collect();
      if (body === null || this.stopped || this.held) return;
      const key = JSON.stringify(body);
      if (key === this.lastSent) return;
      await this.options.send(body);
      this.lastSent = key;
      this.options.onSaved?.(this.options.now());
    } catch (error) {
      // Tried again a period later: the local draft keeps everything meanwhile.
      this.pending = true;
      this.options.onFailed?.(error);
    }
  }

  /**
   * Nothing is sent until `release()`; answers once an automatic save in flight has ended (the
   * editor's own save must not be overtaken by an older autosave).
   */
  async hold(): Promise<void> {
    this.held = true;
    this.clear();
    if (this.inFlight) await this.inFlight;
  }

  release(): void {
    this.held = false;
    if (this.pending && !this.timer && !this.inFlight && !this.stopped) this.schedule(this.options.everyMs);
  }

  /** The server has the content now (a save or a restore): nothing is waiting. */
  reset(): void {
    this.pending = false;
    this.lastSent = null;
    this.clear();
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }
}
