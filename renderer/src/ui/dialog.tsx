/** The app's modal dialog on Radix: focus trap, Escape, labelled by its title, a close button. */
import * as RadixDialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  width = "md",
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  width?: "sm" | "md";
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`dialog dialog-${width}`}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <header className="dialog-header">
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            {description ? (
              <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description>
            ) : null}
          </header>
          {children}
          {/* Last in the DOM so the dialog's first focus lands on its content, not on Close. */}
          <RadixDialog.Close className="icon-button dialog-close" aria-label="Close">
            <X size={16} aria-hidden="true" />
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
