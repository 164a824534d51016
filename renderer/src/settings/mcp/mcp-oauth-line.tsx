/**
 * An `auth: oauth` server's sign-in on its row (docs/contract.md §13.1): "Needs sign-in" with
 * Sign in, "Signing in…" with the sign-in page's link (the desktop opens it in the browser; web
 * mode has only the link), "Signed in" with Sign out, or the failed sign-in's reason with Sign in
 * again. Tokens never reach the page: only this state does.
 */
import { LogIn, LogOut } from "lucide-react";
import type { McpOAuthView } from "../../../../electron/host/rpc/methods/mcp.js";
import { useMcpServers } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { Spinner } from "../../ui/spinner.js";

const stateLabel: Readonly<Record<McpOAuthView["state"], string>> = {
  signed_out: "Needs sign-in",
  signing_in: "Signing in…",
  signed_in: "Signed in",
  failed: "Sign-in failed",
};

export function McpOAuthLine({
  serverId,
  oauth,
  disabled,
}: {
  serverId: string;
  oauth: McpOAuthView;
  disabled: boolean;
}) {
  const action = useMcpServers((s) => s.actions[serverId]);
  const signIn = useMcpServers((s) => s.signIn);
  const signOut = useMcpServers((s) => s.signOut);
  const pending = action?.kind === "pending" ? action.what : null;
  const signInButton = (label: string) => (
    <Button
      size="sm"
      variant="primary"
      icon={<LogIn size={14} aria-hidden="true" />}
      onClick={() => void signIn(serverId)}
      disabled={disabled || pending === "sign-in"}
      busy={pending === "sign-in"}
      aria-label={`${label} to ${serverId}`}
    >
      {label}
    </Button>
  );
  return (
    <div className="mcp-oauth" data-testid="mcp-oauth" data-state={oauth.state}>
      <p className="mcp-oauth-state" aria-live="polite">
        {oauth.state === "signing_in" ? <Spinner size={11} /> : null}
        <span className={`mcp-oauth-label mcp-oauth-${oauth.state}`}>{stateLabel[oauth.state]}</span>
        {oauth.state === "signing_in" && oauth.authorizationUrl ? (
          <span className="mcp-oauth-hint">
            Finish in your browser.{" "}
            <a href={oauth.authorizationUrl} target="_blank" rel="noopener noreferrer">
              Open the sign-in page
            </a>
          </span>
        ) : null}
      </p>
      {oauth.state === "failed" ? (
        <InlineAlert>
          <span data-testid="mcp-oauth-error">{oauth.error}</span>
        </InlineAlert>
      ) : null}
      <div className="mcp-oauth-actions">
        {oauth.state === "signed_out" ? signInButton("Sign in") : null}
        {oauth.state === "failed" || oauth.state === "signing_in" ? signInButton("Sign in again") : null}
        {oauth.state === "signed_in" ? (
          <Button
            size="sm"
            variant="ghost"
            icon={<LogOut size={14} aria-hidden="true" />}
            onClick={() => void signOut(serverId)}
            disabled={pending === "sign-out"}
            busy={pending === "sign-out"}
            aria-label={`Sign out of ${serverId}`}
          >
            Sign out
          </Button>
        ) : null}
      </div>
    </div>
  );
}
