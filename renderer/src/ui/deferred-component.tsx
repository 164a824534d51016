/**
 * A component whose code is its own chunk, loaded on first use or by `preload` (once the first
 * paint is done). Once loaded it renders directly, without suspending.
 */
import { lazy, Suspense, type ComponentType, type ReactNode } from "react";

export interface DeferredComponent<P extends object> {
  (props: P & { fallback?: ReactNode }): ReactNode;
  preload(): Promise<unknown>;
}

export function deferredComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): DeferredComponent<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = (): Promise<ComponentType<P>> =>
    (loading ??= load().then((component) => (loaded = component)));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  const Deferred = ({ fallback = null, ...props }: P & { fallback?: ReactNode }): ReactNode => {
    const own = props as P;
    if (loaded) {
      const Loaded = loaded;
      return <Loaded {...own} />;
    }
    return (
      <Suspense fallback={fallback}>
        <Lazy {...own} />
      </Suspense>
    );
  };
  return Object.assign(Deferred, { preload });
}
