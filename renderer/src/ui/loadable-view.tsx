/**
 * What a screen shows for data it waits for (a `Loadable`): a loading line, a load error with
 * Retry, or the content. One place so every screen words and wires these states the same way.
 */
import type { ReactNode } from "react";
import type { Loadable } from "../stores/loadable.js";
import { Button } from "./button.js";
import { InlineAlert } from "./inline-alert.js";
import { LoadingLine } from "./spinner.js";

/** The error alert for a load that failed, with a Retry button that loads again. */
export function LoadFailedAlert({
  onRetry,
  tone,
  children,
}: {
  onRetry(): unknown;
  tone?: "error" | "warning";
  children: ReactNode;
}) {
  return (
    <InlineAlert
      tone={tone}
      action={
        <Button size="sm" onClick={() => void onRetry()}>
          Retry
        </Button>
      }
    >
      {children}
    </InlineAlert>
  );
}

export function LoadableView<T>({
  value,
  loadingText,
  failureText,
  onRetry,
  warnWhenListStale = false,
  children,
}: {
  value: Loadable<T>;
  /** The loading line, e.g. "Loading plugins…". */
  loadingText: string;
  /** Leads the error message, e.g. "Couldn't load your plugins" (": <reason>" follows). */
  failureText: string;
  onRetry(): unknown;
  /**
   * For lists: when a refresh failed but an older list is still shown, say it may be out of date
   * (`failedRefresh` keeps the old data instead of blanking the screen).
   */
  warnWhenListStale?: boolean;
  children(data: T): ReactNode;
}) {
  if (value.kind === "loading") return <LoadingLine>{loadingText}</LoadingLine>;
  if (value.kind === "failed") {
    return (
      <LoadFailedAlert onRetry={onRetry}>
        {failureText}: {value.message}
      </LoadFailedAlert>
    );
  }
  return (
    <>
      {warnWhenListStale && value.refreshError ? (
        <InlineAlert tone="warning">This list may be out of date: {value.refreshError}</InlineAlert>
      ) : null}
      {children(value.data)}
    </>
  );
}
