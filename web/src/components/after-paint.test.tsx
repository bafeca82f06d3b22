// The parts under a reader page's article render in a task after the one that draws the article.
import { act, render, screen } from '@testing-library/react';
import { AfterPaint } from './after-paint';

describe('AfterPaint', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws what comes before it first and its children at a later task', () => {
    render(
      <>
        <h1>The article</h1>
        <AfterPaint>
          <p>Comments</p>
        </AfterPaint>
      </>,
    );
    expect(screen.getByRole('heading', { name: 'The article' })).toBeInTheDocument();
    expect(screen.queryByText('Comments')).toBeNull();
    act(() => {
      vi.runAllTimers();
    });
    expect(screen.getByText('Comments')).toBeInTheDocument();
  });

  it('draws nothing later once it has left the page', () => {
    const { unmount } = render(
      <AfterPaint>
        <p>Comments</p>
      </AfterPaint>,
    );
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
