import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { AnimatedLogo } from './animated-logo';

describe('AnimatedLogo', () => {
  it('bounces each letter 0.1 s after the previous one, in a cycle with a 2 s pause', () => {
    render(
      <MemoryRouter future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
        <AnimatedLogo />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Pressroom home' });
    expect(link).toHaveAttribute('href', '/');
    const letters = [...link.querySelectorAll<HTMLElement>('.logo__letter')];
    expect(letters.map((l) => l.textContent).join('')).toBe('Pressroom');
    // 1 s bounce + 8 × 0.1 s stagger + 2 s pause = 3.8 s per cycle.
    expect(letters[0].style.animation).toContain('3.8s');
    expect(letters.map((l) => l.style.animation.match(/ (\d\.\d)s infinite/)?.[1])).toEqual(
      ['0.0', '0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8'],
    );
  });
});
