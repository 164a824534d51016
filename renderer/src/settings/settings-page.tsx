import type { ReactNode } from "react";
import { SettingsPageHeader } from "./settings-page-header.js";

/**
 * One settings page: a section named by its own heading (the header row), then the page's content.
 * Written once so the section's aria-labelledby and the heading's id cannot drift apart.
 */
export function SettingsPage({
  headingId,
  title,
  description,
  action,
  children,
}: {
  headingId: string;
  title: string;
  description: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="settings-page" aria-labelledby={headingId}>
      <SettingsPageHeader headingId={headingId} title={title} description={description} action={action} />
      {children}
    </section>
  );
}
