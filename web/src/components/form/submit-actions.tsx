import type { ReactNode } from 'react';

/** A form's actions row: its primary submit button (disabled while busy), then anything else. */
export function SubmitActions({
  label,
  busy,
  children,
}: {
  label: string;
  busy: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="form-actions">
      <button type="submit" className="button button-primary" disabled={busy}>
        {label}
      </button>
      {children}
    </div>
  );
}
