import type { ReactNode } from 'react';
import { formatMoney, intervalLabel } from '@/lib/money';
import type { Plan } from '@/types/money';

/** A plan: name, price and interval, description and benefits; actions below. */
export function PlanCard({ plan, children, badges }: { plan: Plan; children?: ReactNode; badges?: ReactNode }) {
  return (
    <article className="card plan-card" aria-labelledby={`plan-${plan._id}`} data-testid="plan-card">
      <header className="plan-card__head">
        <h3 id={`plan-${plan._id}`}>{plan.name}</h3>
        {badges}
      </header>
      <p className="plan-card__price">
        <strong>{formatMoney(plan.price, plan.currency)}</strong> <span className="muted">{intervalLabel(plan.interval)}</span>
      </p>
      {plan.description ? <p>{plan.description}</p> : null}
      {plan.benefits && plan.benefits.length > 0 ? (
        <ul className="plan-card__benefits" aria-label="Benefits">
          {plan.benefits.map((b, i) => (
            <li key={i}>{b}</li>
          ))}
        </ul>
      ) : null}
      {children}
    </article>
  );
}
