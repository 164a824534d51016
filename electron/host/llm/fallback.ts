/**
 * The fallback chain (docs/contract.md §6.1, §9.1): the main route first, then `fallback_providers` in
 * order, moving on only for 429 or 5xx and only while nothing has been shown from the reply.
 */
import { ProviderRequestError } from "./provider-request-error.js";
import type { Route } from "./route.js";

export interface FallbackStep {
  route: Route;
  error: ProviderRequestError;
}

export interface FallbackResult<T> {
  result: T;
  route: Route;
  /** The routes that failed before `route` answered, in order. */
  skipped: FallbackStep[];
}

export class FallbackExhaustedError extends ProviderRequestError {
  constructor(readonly steps: FallbackStep[]) {
    const last = steps.at(-1)!;
    const tried = steps.map((s) => s.route.providerName).join(", then ");
    super(
      steps.length > 1
        ? `Every provider failed (tried ${tried}). Last error: ${last.error.message}`
        : last.error.message,
      last.error.kind,
      last.error.providerId,
      last.error.status,
    );
  }
}

export async function runWithFallback<T>(
  routes: readonly Route[],
  attempt: (route: Route) => Promise<T>,
  canFallBack: () => boolean = () => true,
  onSkip?: (step: FallbackStep) => void,
): Promise<FallbackResult<T>> {
  const skipped: FallbackStep[] = [];
  for (const [index, route] of routes.entries()) {
    try {
      return { result: await attempt(route), route, skipped };
    } catch (err) {
      if (!(err instanceof ProviderRequestError)) throw err;
      const step = { route, error: err };
      skipped.push(step);
      const last = index === routes.length - 1;
      if (last || !err.retryable || !canFallBack()) {
        throw skipped.length > 1 ? new FallbackExhaustedError(skipped) : err;
      }
      onSkip?.(step);
    }
  }
  throw new Error("runWithFallback needs at least one route");
}
