/**
 * Keyboard focus that falls to the page, brought back: a control that was used and then went away
 * (Reset on a slot that is no longer pinned, Revoke once revoked) or was disabled while it worked
 * leaves the focus on <body>, and a keyboard user would start again from the top.
 */

/** Whether the focus has fallen to the page. */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/** After the next render, gives the first target that is still on the page the focus, if it fell to the page meanwhile. */
export function refocusIfLost(...targets: Array<() => HTMLElement | null | undefined>): void {
  requestAnimationFrame(() => {
    if (!focusIsLost()) return;
    for (const target of targets) {
      const element = target();
      if (element?.isConnected) {
        element.focus();
        return;
      }
    }
  });
}
