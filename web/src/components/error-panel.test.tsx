import { render, screen } from '@testing-library/react';
import { ErrorBoundary } from './error-boundary';
import { GenericErrorPanel } from './error-panel';

function Boom({ value }: { value: unknown }): never {
  throw value;
}

describe('error panels', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it("shows 'Something went wrong!' with the error's message", () => {
    render(
      <ErrorBoundary>
        <Boom value={new Error('Kaput')} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong!' })).toBeInTheDocument();
    expect(screen.getByText('Kaput')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeInTheDocument();
  });

  it("says 'An unknown error occurred.' when the error has no message", () => {
    render(
      <ErrorBoundary>
        <Boom value={{}} />
      </ErrorBoundary>,
    );
    expect(screen.getByText('An unknown error occurred.')).toBeInTheDocument();
  });

  it('the generic panel accepts a plain string', () => {
    render(<GenericErrorPanel error="Out of cheese" />);
    expect(screen.getByText('Out of cheese')).toBeInTheDocument();
  });
});
