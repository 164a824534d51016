/**
 * Electron's security checklist as data and pure checks, so they are tested without Electron:
 * the window's webPreferences, the app origin, which IPC senders and navigations are trusted.
 */
export const appScheme = "app";
const appHost = "hermes";
export const appOrigin = `${appScheme}://${appHost}`;

// URL.origin is "null" for custom schemes, so compare scheme and host instead.
export const isAppUrl = (raw: string): boolean => {
  try {
    const url = new URL(raw);
    return url.protocol === `${appScheme}:` && url.host === appHost;
  } catch {
    return false;
  }
};

export function appWindowPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: true,
  } as const;
}

export const appContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  // Plugin pages (docs/contract.md §8), each in a sandboxed frame on its own hermes-plugin://<id> origin.
  "frame-src hermes-plugin:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Only the app's own top-level page, in the window we created, may call the host. */
export function isTrustedSender(sender: {
  frameUrl: string | undefined;
  isMainFrame: boolean;
  isAppWindow: boolean;
}) {
  return sender.isAppWindow && sender.isMainFrame && !!sender.frameUrl && isAppUrl(sender.frameUrl);
}

/** In-app navigation stays on the app origin; everything else is refused. */
export function isAllowedNavigation(url: string): boolean {
  return isAppUrl(url);
}
