/**
 * The images of a person's message in the transcript (docs/contract.md §9.1), and — when the main model was
 * text-only — the mark that the vision slot described them, with the description it sent instead.
 */
import { Eye } from "lucide-react";
import type { ChatMessage } from "../../stores/chat/chat-model.js";

interface StoredImage {
  mimeType: string;
  data: string;
  name?: string;
}

const imagesOf = (message: ChatMessage): StoredImage[] =>
  Array.isArray(message.meta?.images) ? (message.meta.images as StoredImage[]) : [];

export function MessageImages({ message }: { message: ChatMessage }) {
  const images = imagesOf(message);
  if (images.length === 0) return null;
  const describedBy = message.meta?.describedBy as { provider?: string; model?: string } | undefined;
  const descriptions = Array.isArray(message.meta?.imageDescriptions)
    ? (message.meta.imageDescriptions as string[])
    : null;
  const failed = typeof message.meta?.imageError === "string" ? message.meta.imageError : null;
  return (
    <div className="message-images">
      <ul className="message-image-list">
        {images.map((image, index) => (
          <li key={index}>
            <img
              src={`data:${image.mimeType};base64,${image.data}`}
              alt={image.name ?? `Image ${index + 1}`}
            />
          </li>
        ))}
      </ul>
      {descriptions ? (
        <details className="image-described" data-described-by={describedBy?.model ?? ""}>
          <summary>
            <Eye size={12} aria-hidden="true" />
            Described by the vision model
            {describedBy ? ` (${describedBy.provider} · ${describedBy.model})` : ""}
          </summary>
          {descriptions.map((text, index) => (
            <p key={index}>{text}</p>
          ))}
        </details>
      ) : null}
      {failed ? <p className="image-described image-described-failed">Not described: {failed}</p> : null}
    </div>
  );
}
