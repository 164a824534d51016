/** One answer on its way from a card: its buttons turn busy, and a refusal stays on the card. */
import { useState } from "react";
import { describeError } from "../../api/rpc-error.js";

export function useAnswer(): {
  busy: boolean;
  error: string | null;
  run(send: () => Promise<void>): Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return {
    busy,
    error,
    async run(send) {
      if (busy) return;
      setBusy(true);
      setError(null);
      try {
        await send();
      } catch (err) {
        setError(describeError(err));
      } finally {
        setBusy(false);
      }
    },
  };
}
