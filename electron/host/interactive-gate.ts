/**
 * The host's one start gate: work that waits for a window to be interactive, never competing with
 * its start — the plugins (the apps' `pluginStart: "after-window"`) and MCP servers
 * (docs/contract.md §13.2). The renderer says so with
 * `host.interactive` once its chat input is usable and the session list loaded; a call that acts
 * on plugins opens it too (it wants them now); a host no window reaches by `fallbackMs` (a web
 * host whose page is not open yet) starts the work then.
 */
export class InteractiveGate {
  private readonly waiting: (() => void)[] = [];
  private opened = false;
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(fallbackMs: number) {
    this.timer = setTimeout(() => this.open(), fallbackMs);
    this.timer.unref?.();
  }

  /** Runs `work` once the gate opens (at once when it is open). */
  whenInteractive(work: () => void): void {
    if (this.opened) work();
    else this.waiting.push(work);
  }

  /** A window is interactive; later calls do nothing. */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    clearTimeout(this.timer);
    for (const work of this.waiting.splice(0)) work();
  }

  /** The host is closing: nothing waiting runs. */
  cancel(): void {
    clearTimeout(this.timer);
    this.waiting.length = 0;
    this.opened = true;
  }
}
