/**
 * The shell's answers to what a page asks of the window, as plain functions the shell wires to
 * Electron's session and web contents (tested without Electron): which permissions are granted,
 * and where a link that would leave the app goes (the system browser, for web and mail links only).
 */
import { externalLinkUrl } from "./host/rpc/shared-rules/external-links.js";
import { isAppUrl } from "./window-security.js";

/** What the app's page uses: writing text to the clipboard (the Copy buttons). Nothing else. */
export const grantedPermissions: readonly string[] = ["clipboard-sanitized-write"];

/** The frame that asks, as Electron describes it to a permission handler. */
export interface PermissionAsker {
  requestingUrl?: string;
  isMainFrame: boolean;
}

/** Granted only to the app's own top-level page, and only what it uses; plugin frames get nothing. */
export function isPermissionGranted(permission: string, asker: PermissionAsker): boolean {
  return (
    grantedPermissions.includes(permission) &&
    asker.isMainFrame &&
    asker.requestingUrl !== undefined &&
    isAppUrl(asker.requestingUrl)
  );
}

/** The part of Electron's Session the permission handlers are set on. */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: PermissionAsker,
    ) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (
      webContents: unknown,
      permission: string,
      requestingOrigin: string,
      details: PermissionAsker,
    ) => boolean,
  ): void;
}

export function guardPermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionGranted(permission, details)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    isPermissionGranted(permission, { ...details, requestingUrl: details.requestingUrl ?? requestingOrigin }),
  );
}

/**
 * A link or `window.open` that would leave the app: handed to the system browser (or mail app)
 * when it is http:, https: or mailto:, dropped otherwise (the renderer says so in the reply).
 * Answers whether it was handed on.
 */
export function openOutside(url: string, openExternal: (url: string) => Promise<void>): boolean {
  const target = externalLinkUrl(url);
  if (target === null) return false;
  openExternal(target).catch((err: unknown) =>
    console.error(`Could not open ${new URL(target).protocol} link in the system: ${String(err)}`),
  );
  return true;
}
