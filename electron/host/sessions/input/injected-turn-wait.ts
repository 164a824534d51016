/**
 * The wait in front of a plugin's injected turn (docs/contract.md §9.3): up to 120 s for the session's
 * background work (forks, the background review) to finish, then what still runs is cancelled.
 * A person's message of any kind ends the wait at once and cancels the background work as a
 * person's turn would; another plugin's message does not. A stop ends the wait too (the turn
 * then ends stopped without a request).
 */
import type { BackgroundWork, WaitIdleOutcome } from "../background/background-work.js";
import { NEXT_PERSON_TURN } from "../turns/turn-runner.js";

export const INJECTED_TURN_WAIT_MS = 120_000;
/** The cancel reason background work gets when an injected turn waited its 120 s. */
export const INJECTED_TURN_WAITED = "injected_turn_waited";

export type BackgroundWaiter = Pick<BackgroundWork, "waitIdle" | "cancelAll" | "isBusy">;

export class InjectedTurnWait {
  private readonly end = new AbortController();
  private over = false;

  constructor(
    private readonly work: BackgroundWaiter,
    private readonly sessionId: string,
    /** Told when the turn starts and stops waiting for work (the transcript marks its message). */
    private readonly onWaiting: (waiting: boolean) => void = () => undefined,
  ) {}

  /** Whether the turn has not got past its wait yet (a redirect then joins it instead of stopping it). */
  get pending(): boolean {
    return !this.over;
  }

  /** A person's message arrived: the wait ends now and the background work is cancelled. */
  endForPerson(): void {
    if (this.over) return;
    this.over = true;
    this.end.abort();
    void this.work.cancelAll(this.sessionId, NEXT_PERSON_TURN);
  }

  /** Waits as the rule says; `stop` is the turn's own abort (a person's Stop). */
  async run(stop: AbortSignal): Promise<WaitIdleOutcome> {
    if (this.over) return "aborted";
    if (!this.work.isBusy(this.sessionId)) {
      this.over = true;
      return "idle";
    }
    const onStop = () => this.end.abort();
    stop.addEventListener("abort", onStop, { once: true });
    this.onWaiting(true);
    try {
      const outcome = await this.work.waitIdle(this.sessionId, INJECTED_TURN_WAIT_MS, this.end.signal);
      if (outcome === "timeout" && !this.over) void this.work.cancelAll(this.sessionId, INJECTED_TURN_WAITED);
      return outcome;
    } finally {
      this.over = true;
      stop.removeEventListener("abort", onStop);
      this.onWaiting(false);
    }
  }
}
