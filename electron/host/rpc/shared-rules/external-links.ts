/**
 * Which links in a reply may leave the app: web and mail links only. Shared by the renderer (which
 * refuses the rest with a note in the reply) and the Electron shell (which opens these in the
 * system browser and never loads a link in the app's window).
 */
export const externalLinkSchemes: readonly string[] = ["http:", "https:", "mailto:"];

/** The absolute URL when `href` is a link that may open outside the app; null for any other. */
export function externalLinkUrl(href: string | null | undefined): string | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    // Relative or malformed: not a link to anywhere outside the app.
    return null;
  }
  return externalLinkSchemes.includes(url.protocol) ? url.href : null;
}
