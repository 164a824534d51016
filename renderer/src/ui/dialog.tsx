/** The app's modal dialog on Radix: focus trap, Escape, labelled by its title, a close button. */
import * as RadixDialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useRef, type ReactNode } from "react";

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
  // Dialogs here open from many places, not from one Radix Trigger, so the control that had focus
  // when one opened is remembered and gets focus back when it closes (Radix's documented hooks).
  const opener = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`dialog dialog-${width}`}
          onOpenAutoFocus={() => {
            const active = document.activeElement;
            opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
          }}
          onCloseAutoFocus={(event) => {
            const target = opener.current;
            opener.current = null;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
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
          <DialogCloseButton />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * The X in a dialog's corner. Exported for a dialog that builds its own Radix Content (the plugin
 * consent screen) so every dialog closes with the same control and the same accessible name.
 * Place it last in the Content, so the dialog's first focus lands on its content, not on Close.
 */
export function DialogCloseButton() {
  return (
    <RadixDialog.Close className="icon-button dialog-close" aria-label="Close">
      <X size={16} aria-hidden="true" />
    </RadixDialog.Close>
  );
}
