/** Error text in plain words, announced to screen readers (`role="alert"`), with an optional retry. */
import { CircleExclamationPoint } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./button.js";

export function InlineAlert({
  children,
  action,
  tone = "error",
}: {
  children: ReactNode;
  action?: ReactNode;
  tone?: "error" | "warning";
}) {
  return (
    <div role="alert" className={`inline-alert inline-alert-${tone}`}>
      <CircleExclamationPoint size={16} aria-hidden="true" className="inline-alert-icon" />
      <div className="inline-alert-text">{children}</div>
      {action ? <div className="inline-alert-action">{action}</div> : null}
    </div>
  );
}

/** An alert the reader puts away once read: the same alert with a Dismiss button as its action. */
export function DismissibleAlert({
  children,
  onDismiss,
  tone = "error",
}: {
  children: ReactNode;
  onDismiss(): void;
  tone?: "error" | "warning";
}) {
  return (
    <InlineAlert
      tone={tone}
      action={
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          Dismiss
        </Button>
      }
    >
      {children}
    </InlineAlert>
  );
}
