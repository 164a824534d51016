/** The composer's image controls (docs/contract.md §9.1): the Attach image button and the waiting images. */
import { ImagePlus, X } from "lucide-react";
import { useRef } from "react";
import { IMAGE_MIME_TYPES } from "../../../../electron/host/rpc/methods/sessions.js";
import type { PendingImage } from "./image-attachments.js";

export function AttachImageButton({
  disabled,
  onFiles,
}: {
  disabled: boolean;
  onFiles(files: File[]): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="composer-attach"
        aria-label="Attach image"
        title="Attach image"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <ImagePlus size={16} aria-hidden="true" />
      </button>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        accept={IMAGE_MIME_TYPES.join(",")}
        data-testid="attach-image-input"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          event.target.value = "";
        }}
      />
    </>
  );
}

export function PendingImages({
  images,
  onRemove,
}: {
  images: readonly PendingImage[];
  onRemove(i: number): void;
}) {
  if (images.length === 0) return null;
  return (
    <ul className="composer-images" aria-label="Attached images">
      {images.map((image, index) => (
        <li key={`${image.name}-${index}`} className="composer-image">
          <img src={image.previewUrl} alt={image.name ?? "attached image"} />
          <button
            type="button"
            aria-label={`Remove ${image.name ?? "image"}`}
            onClick={() => onRemove(index)}
          >
            <X size={12} aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}
