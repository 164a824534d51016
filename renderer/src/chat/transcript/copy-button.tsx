/** Copies text to the clipboard and says so for a moment ("Copied"), or that it could not. */
import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";

export function CopyButton({
  text,
  label = "Copy",
  className,
}: {
  text: string;
  label?: string;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  const shown = state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : label;
  return (
    <button
      type="button"
      className={["icon-text-button", className].filter(Boolean).join(" ")}
      onClick={() => void copy()}
      aria-label={shown}
      title={shown}
    >
      {state === "copied" ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
      <span className="icon-text-button-label">{state === "idle" ? null : shown}</span>
    </button>
  );
}
