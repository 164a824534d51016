/**
 * A link in a reply. Web and mail links open outside the app: a new tab in web mode, the system
 * browser in the desktop app (its shell hands them on and never loads them in the window). Links
 * within the reply (footnotes) stay in it. Any other link is refused, with a note beside it.
 */
import { useState, type ReactNode } from "react";
import { externalLinkUrl } from "../../../../electron/host/rpc/shared-rules/external-links.js";

export const refusedLinkNote =
  "Not opened: only web (http, https) and mail (mailto) links open from a reply.";

export function ReplyLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const [refused, setRefused] = useState(false);
  if (href?.startsWith("#")) return <a href={href}>{children}</a>;
  if (externalLinkUrl(href) !== null) {
    return (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    );
  }
  return (
    <>
      <a
        href={href ?? ""}
        data-refused-link=""
        onClick={(event) => {
          event.preventDefault();
          setRefused(true);
        }}
      >
        {children}
      </a>
      <span role="status" className="refused-link-note">
        {refused ? refusedLinkNote : null}
      </span>
    </>
  );
}
