/** The app's buttons: one look per intent, an optional leading icon, and a busy state. */
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Spinner } from "./spinner.js";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: "sm" | "md";
  icon?: ReactNode;
  /** Shows a spinner in place of the icon; the caller sets `disabled` and the busy label. */
  busy?: boolean;
}

export function Button({
  variant = "secondary",
  size = "md",
  icon,
  busy = false,
  className,
  children,
  type = "button",
  ...rest
}: ButtonProps) {
  const classes = ["btn", `btn-${variant}`, `btn-${size}`, className].filter(Boolean).join(" ");
  return (
    <button type={type} className={classes} aria-busy={busy || undefined} {...rest}>
      {busy ? <Spinner size={14} /> : icon}
      {children}
    </button>
  );
}
