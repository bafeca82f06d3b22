import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyDetails, LocalDraftKeeper, type PostDraft } from './post-draft';

type Body = Omit<PostDraft, 'savedAt'>;
const body = (title: string): Body => ({ details: { ...emptyDetails(), title }, blocks: [] });

describe('LocalDraftKeeper', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the draft once, a moment after the last of several changes', async () => {
    const stored: Body[] = [];
    let title = 'first';
    const keeper = new LocalDraftKeeper(() => Promise.resolve(body(title)), (d) => stored.push(d), 600);
    keeper.changed();
    await vi.advanceTimersByTimeAsync(400);
    title = 'second';
    keeper.changed();
    await vi.advanceTimersByTimeAsync(400);
    expect(stored).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(stored.map((d) => d.details.title)).toEqual(['second']);
  });

  it('writes nothing after it is stopped, not even a write whose blocks were still being collected', async () => {
    const stored: Body[] = [];
    let finishCollecting: (d: Body) => void = () => {};
    const keeper = new LocalDraftKeeper(
      () => new Promise<Body>((resolve) => (finishCollecting = resolve)),
      (d) => stored.push(d),
      600,
    );
    keeper.changed();
    await vi.advanceTimersByTimeAsync(600);
    // The post is saved while the editor is still collecting its blocks for the draft.
    keeper.stop();
    finishCollecting(body('late'));
    await vi.advanceTimersByTimeAsync(0);
    expect(stored).toEqual([]);
    keeper.changed();
    await vi.advanceTimersByTimeAsync(1000);
    expect(stored).toEqual([]);
  });

  it('drops a write waiting for its time when cancelled, and keeps working after', async () => {
    const stored: Body[] = [];
    const keeper = new LocalDraftKeeper(() => Promise.resolve(body('kept')), (d) => stored.push(d), 600);
    keeper.changed();
    keeper.cancel();
    await vi.advanceTimersByTimeAsync(1000);
    expect(stored).toEqual([]);
    keeper.changed();
    await vi.advanceTimersByTimeAsync(600);
    expect(stored).toHaveLength(1);
  });
});
