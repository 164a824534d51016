/**
 * A button that shows only an icon. Its label is both its accessible name and its tooltip, so a
 * pointer user reads the same words a screen reader says, and the two cannot drift apart.
 */
import type { ButtonHTMLAttributes, ReactNode } from "react";

interface IconButtonProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  "aria-label" | "title" | "children"
> {
  label: string;
  /** The icon, marked aria-hidden by the caller (the label names the button). */
  icon: ReactNode;
}

export function IconButton({ label, icon, className, ...rest }: IconButtonProps) {
  return (
    <button
      type="button"
      className={className ? `icon-button ${className}` : "icon-button"}
      aria-label={label}
      title={label}
      {...rest}
    >
      {icon}
    </button>
  );
}
