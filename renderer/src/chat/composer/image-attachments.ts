/**
 * Images waiting in the composer (docs/contract.md §9.1): from the Attach image button, a paste or a drop.
 * Each file is checked before it is read (type, size, count) and refused with a sentence that says
 * why, then by its first bytes (a text file named .png is refused when attached, not when sent);
 * the host checks the bytes again when the message is sent.
 */
import { useCallback, useState } from "react";
import {
  IMAGE_MIME_TYPES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_MESSAGE,
  type SessionImageInput,
} from "../../../../electron/host/rpc/methods/sessions.js";
import {
  IMAGE_SIGNATURE_BYTES,
  sniffImageType,
} from "../../../../electron/host/rpc/shared-rules/image-types.js";

export interface PendingImage extends SessionImageInput {
  /** For the preview: the same bytes as a data: URL. */
  previewUrl: string;
  bytes: number;
}

const megabytes = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

const notAnImage = (name: string) =>
  `"${name}" is not an image the app can send (its contents are not PNG, JPEG, WebP or GIF, whatever its name says).`;

/** Why a file can't be attached by its name, type and size, or null when it can (its bytes are checked next). */
export function refusalFor(file: { name: string; type: string; size: number }): string | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
    return `"${file.name}" is not an image the app can send; use PNG, JPEG, WebP or GIF.`;
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return `"${file.name}" is ${megabytes(file.size)}; images can be at most ${megabytes(MAX_IMAGE_BYTES)}.`;
  }
  return null;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === "string" ? resolve(reader.result) : reject(new Error("empty"));
    reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
    reader.readAsDataURL(file);
  });
}

export function useImageAttachments() {
  const [images, setImages] = useState<PendingImage[]>([]);
  const [error, setError] = useState<string | null>(null);

  const addFiles = useCallback(async (files: readonly File[]) => {
    setError(null);
    const problems: string[] = [];
    const read: PendingImage[] = [];
    for (const file of files) {
      const refusal = refusalFor(file);
      if (refusal) {
        problems.push(refusal);
        continue;
      }
      try {
        // The bytes decide, as the host's check does: a text file named .png is refused here.
        const head = new Uint8Array(await file.slice(0, IMAGE_SIGNATURE_BYTES).arrayBuffer());
        const sniffed = sniffImageType(head);
        if (!sniffed) {
          problems.push(notAnImage(file.name));
          continue;
        }
        const url = await readAsDataUrl(file);
        const data = url.slice(url.indexOf(",") + 1);
        read.push({
          mimeType: sniffed,
          data,
          name: file.name || "pasted image",
          previewUrl: `data:${sniffed};base64,${data}`,
          bytes: file.size,
        });
      } catch {
        problems.push(`"${file.name}" could not be read; attach it again.`);
      }
    }
    setImages((current) => {
      const room = MAX_IMAGES_PER_MESSAGE - current.length;
      if (read.length > room) problems.push(`At most ${MAX_IMAGES_PER_MESSAGE} images go with one message.`);
      return [...current, ...read.slice(0, Math.max(room, 0))];
    });
    if (problems.length) setError(problems.join(" "));
  }, []);

  const remove = useCallback((index: number) => setImages((c) => c.filter((_, i) => i !== index)), []);
  const clear = useCallback(() => {
    setImages([]);
    setError(null);
  }, []);

  /** Files out of a paste or a drop (a text paste has none and is left to the text box). */
  const filesOf = (items: DataTransfer | null): File[] => (items ? [...items.files] : []);

  return { images, error, addFiles, remove, clear, filesOf };
}
