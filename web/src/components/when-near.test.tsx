// A part below the article renders once its place nears the screen (or at once without
// IntersectionObserver).
import { act, render, screen } from '@testing-library/react';
import { NEAR_MARGIN, WhenNear } from './when-near';

afterEach(() => {
  Reflect.deleteProperty(globalThis, 'IntersectionObserver');
});

describe('WhenNear', () => {
  it('renders at once where the browser has no IntersectionObserver', () => {
    render(
      <WhenNear>
        <p>Support this post</p>
      </WhenNear>,
    );
    expect(screen.getByText('Support this post')).toBeInTheDocument();
  });

  it('holds its place until it comes near the screen', () => {
    let report: ((entries: { isIntersecting: boolean }[]) => void) | null = null;
    const options: IntersectionObserverInit[] = [];
    class FakeObserver {
      constructor(callback: (entries: { isIntersecting: boolean }[]) => void, init: IntersectionObserverInit) {
        report = callback;
        options.push(init);
      }
      observe() {}
      disconnect() {}
    }
    Object.defineProperty(globalThis, 'IntersectionObserver', { value: FakeObserver, configurable: true });
    render(
      <WhenNear>
        <p>Support this post</p>
      </WhenNear>,
    );
    expect(screen.queryByText('Support this post')).toBeNull();
    expect(screen.getByTestId('when-near')).toBeInTheDocument();
    expect(options[0].rootMargin).toBe(NEAR_MARGIN);
    act(() => report!([{ isIntersecting: false }]));
    expect(screen.queryByText('Support this post')).toBeNull();
    act(() => report!([{ isIntersecting: true }]));
    expect(screen.getByText('Support this post')).toBeInTheDocument();
  });
});
