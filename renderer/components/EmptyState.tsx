import type { ReactNode } from 'react';

/** An empty screen that says what to do next. */
export function EmptyState({ title, children, action, icon = '◌' }: { title: string; children?: ReactNode; action?: ReactNode; icon?: string }) {
  return (
    <section className="empty-state" aria-label={title}>
      <div className="empty-icon" aria-hidden="true">{icon}</div>
      <h2>{title}</h2>
      {children && <div className="empty-text">{children}</div>}
      {action && <div className="empty-action">{action}</div>}
    </section>
  );
}
