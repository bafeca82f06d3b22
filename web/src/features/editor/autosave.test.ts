// Saving to the server while the author writes: at most once per ten minutes, only changed
// content, never during the editor's own save or while it is held, and only drafts of one's own.
import { act, renderHook } from '@testing-library/react';
import type { RefObject } from 'react';
import { mockApi } from '@/test/mock-api';
import { AUTOSAVE_EVERY_MS, AUTOSAVE_RETRY_MS, Autosaver } from './autosave';
import type { BlockEditorHandle } from './components/block-editor';
import { emptyDetails, type PostDetails } from './post-draft';
import { autosaveBody, useServerAutosave } from './use-server-autosave';

const MINUTE = 60 * 1000;

/** Lets the saver's promises settle under fake timers. */
async function flush() {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

function setup(over: { busy?: () => boolean; collect?: () => Promise<{ text: string } | null>; send?: (body: { text: string }) => Promise<void> } = {}) {
  let text = 'first';
  const send = vi.fn(over.send ?? (() => Promise.resolve()));
  const saver = new Autosaver<{ text: string }>({
    collect: over.collect ?? (() => Promise.resolve({ text })),
    send,
    busy: over.busy ?? (() => false),
  });
  return { saver, send, type: (next: string) => ((text = next), saver.changed()) };
}

describe('the autosave throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends nothing before ten minutes after the first change, then once, however much was typed', async () => {
    const { saver, send, type } = setup();
    type('a');
    for (let m = 1; m < 10; m += 1) {
      await vi.advanceTimersByTimeAsync(MINUTE);
      type(`a${m}`);
    }
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenLastCalledWith({ text: 'a9' });
    // Typing on: the next one ten minutes after the first change since.
    type('b');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS - 1);
    expect(send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(2);
    saver.stop();
  });

  it('sends nothing without a change, and never the same content twice in a row', async () => {
    const { saver, send, type } = setup();
    await vi.advanceTimersByTimeAsync(3 * AUTOSAVE_EVERY_MS);
    expect(send).not.toHaveBeenCalled();
    type('same');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    type('same');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    expect(send).toHaveBeenCalledTimes(1);
    saver.stop();
  });

  it('waits while the editor’s own save is in flight, then tries again shortly', async () => {
    let busy = true;
    const { saver, send, type } = setup({ busy: () => busy });
    type('x');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    expect(send).not.toHaveBeenCalled();
    busy = false;
    await vi.advanceTimersByTimeAsync(AUTOSAVE_RETRY_MS);
    expect(send).toHaveBeenCalledTimes(1);
    saver.stop();
  });

  it('sends nothing while held (the editor saving, the history open) and waits for a save in flight', async () => {
    let finish: () => void = () => {};
    const { saver, send, type } = setup({ send: () => new Promise<void>((resolve) => (finish = resolve)) });
    type('x');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    expect(send).toHaveBeenCalledTimes(1);
    let held = false;
    void saver.hold().then(() => (held = true));
    await flush();
    expect(held).toBe(false);
    finish();
    await flush();
    expect(held).toBe(true);
    type('y');
    await vi.advanceTimersByTimeAsync(2 * AUTOSAVE_EVERY_MS);
    expect(send).toHaveBeenCalledTimes(1);
    saver.release();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    expect(send).toHaveBeenCalledTimes(2);
    saver.stop();
  });

  it('skips content the server would refuse, forgets what a restore replaced, stops for good', async () => {
    let valid = false;
    const { saver, send, type } = setup({ collect: () => Promise.resolve(valid ? { text: 'ok' } : null) });
    type('x');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    expect(send).not.toHaveBeenCalled();
    valid = true;
    type('y');
    saver.reset();
    expect(saver.scheduled).toBe(false);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    expect(send).not.toHaveBeenCalled();
    saver.stop();
    type('z');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    expect(send).not.toHaveBeenCalled();
  });

  it('tries again a period later when sending failed', async () => {
    const send = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined);
    const onFailed = vi.fn();
    const saver = new Autosaver<{ text: string }>({ collect: () => Promise.resolve({ text: 't' }), send, busy: () => false, onFailed });
    saver.changed();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    expect(onFailed).toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS);
    expect(send).toHaveBeenCalledTimes(2);
    saver.stop();
  });
});

describe('the editor’s automatic save', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  const blocks = [{ id: 'b1', type: 'paragraph', data: { text: 'Hello there' } }];
  function refs(details: Partial<PostDetails> = {}) {
    const editorRef = { current: { save: () => Promise.resolve(blocks) } } as unknown as RefObject<BlockEditorHandle>;
    const detailsRef = { current: { ...emptyDetails(), title: 'A draft', ...details } } as RefObject<PostDetails>;
    return { editorRef, detailsRef };
  }

  it('sends the content with autosave: true, never the status, schedule or email choice', () => {
    const body = autosaveBody({ ...emptyDetails(), title: ' T ', status: 'published', publishAt: '2030-01-01T10:00' }, blocks);
    expect(body).toMatchObject({ title: 'T', blocks, autosave: true });
    expect(body).not.toHaveProperty('status');
    expect(body).not.toHaveProperty('publishAt');
    expect(body).not.toHaveProperty('emailSubscribers');
  });

  it('PATCHes the draft ten minutes after a change, and says when', async () => {
    mockApi.on('PATCH', '/post/update/a-draft', { body: { message: 'Post updated successfully', post: { _id: 'p1', slug: 'a-draft' } } });
    const { editorRef, detailsRef } = refs();
    const { result } = renderHook(() => useServerAutosave({ slug: 'a-draft', editorRef, detailsRef, saving: false }));
    act(() => result.current.changed());
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_EVERY_MS - 1));
    expect(mockApi.calls('PATCH', '/post/update/a-draft')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await act(flush);
    const calls = mockApi.calls('PATCH', '/post/update/a-draft');
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toMatchObject({ title: 'A draft', blocks, autosave: true });
    expect(result.current.message).toMatch(/^Draft saved automatically at /);
  });

  it('does nothing for a post it may not save automatically (new, published, someone else’s)', async () => {
    const { editorRef, detailsRef } = refs();
    const { result } = renderHook(() => useServerAutosave({ slug: undefined, editorRef, detailsRef, saving: false }));
    act(() => result.current.changed());
    await act(() => vi.advanceTimersByTimeAsync(2 * AUTOSAVE_EVERY_MS));
    expect(result.current.message).toBeNull();
  });

  it('does not send a draft the server would refuse (no title)', async () => {
    const { editorRef, detailsRef } = refs({ title: '  ' });
    const { result } = renderHook(() => useServerAutosave({ slug: 'a-draft', editorRef, detailsRef, saving: false }));
    act(() => result.current.changed());
    await act(() => vi.advanceTimersByTimeAsync(2 * AUTOSAVE_EVERY_MS));
    expect(mockApi.calls('PATCH', '/post/update/a-draft')).toHaveLength(0);
  });
});
