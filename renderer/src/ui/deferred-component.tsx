/**
 * A component whose code is its own chunk, loaded on first use or by `preload` (once the first
 * paint is done). Once loaded it renders directly, without suspending.
 */
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from "react";

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
    // Chosen once per mount: switching from the Suspense path to the direct one when the chunk
    // arrives would remount what is below (an open dialog would lose where focus goes back to).
    const [Loaded] = useState(() => loaded);
    if (Loaded) return <Loaded {...own} />;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...own} />
      </Suspense>
    );
  };
  return Object.assign(Deferred, { preload });
}

/**
 * Mounts `children` from the first time `needed` is true and keeps them mounted after (a closing
 * dialog still plays its way out): what the first paint never shows isn't loaded for it.
 */
export function MountOnceNeeded({ needed, children }: { needed: boolean; children: ReactNode }): ReactNode {
  const [mounted, setMounted] = useState(needed);
  if (needed && !mounted) setMounted(true);
  return mounted || needed ? children : null;
}
