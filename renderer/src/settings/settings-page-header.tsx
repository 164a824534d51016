import type { ReactNode } from "react";

/** The title row of a settings page: heading, one line on what it's for, and its main action. */
export function SettingsPageHeader({
  headingId,
  title,
  description,
  action,
}: {
  headingId?: string;
  title: string;
  description: string;
  action?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div className="page-header-text">
        <h1 id={headingId} className="page-title">
          {title}
        </h1>
        <p className="page-description">{description}</p>
      </div>
      {action ? <div className="page-header-action">{action}</div> : null}
    </header>
  );
}
