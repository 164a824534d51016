import { LoaderCircle } from "lucide-react";

/** A decorative spinner; the text next to it says what is happening. */
export function Spinner({ size = 16 }: { size?: number }) {
  return <LoaderCircle className="spinner" size={size} aria-hidden="true" />;
}

/** A full-width "we're waiting" line, e.g. "Loading providers…". */
export function LoadingLine({ children }: { children: string }) {
  return (
    <p className="loading-line" aria-busy="true">
      <Spinner />
      {children}
    </p>
  );
}
