/**
 * The error of a transcript card's last action (a plugin's card, a Memory proposal), announced as
 * it appears; nothing while there is none.
 */
export function CardError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="message-error">
      {error}
    </p>
  ) : null;
}
