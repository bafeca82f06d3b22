import { useEffect, type ReactNode } from 'react';
import { AnimatedLogo } from './animated-logo';

/** The frame of the screens outside the shell (sign up, log in, reset password). */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Pressroom`;
  }, [title]);
  return (
    <main className="auth-screen">
      <div className="auth-card">
        <div className="auth-card__logo">
          <AnimatedLogo />
        </div>
        <h1 className="auth-card__title">{title}</h1>
        {children}
        {footer ? <div className="auth-card__footer">{footer}</div> : null}
      </div>
    </main>
  );
}
