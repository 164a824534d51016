/**
 * Images a person attaches to a message (docs/contract.md §9.1): PNG, JPEG, WebP or GIF, checked by their
 * bytes (not the name or the declared type), at most 5 MB each and 4 per message. They are kept
 * with the message in the session store (base64 in its meta), never as loose files.
 */
import { sniffImageType, type ImageMimeType } from "../../rpc/shared-rules/image-types.js";
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE } from "../../rpc/methods/sessions.js";
import { SessionInputError } from "../store/session-errors.js";

export { sniffImageType, type ImageMimeType };

/** As stored in a user message's `meta.images` and sent to a vision model as a `data:` URL. */
export interface ImageAttachment {
  mimeType: ImageMimeType;
  /** Base64, no `data:` prefix. */
  data: string;
  bytes: number;
  name?: string;
}

const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;
const megabytes = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

/** Checks what a client sent; each refusal says what to do. */
export function checkImages(
  raw: readonly { mimeType: string; data: string; name?: string }[] | undefined,
): ImageAttachment[] {
  if (!raw || raw.length === 0) return [];
  if (raw.length > MAX_IMAGES_PER_MESSAGE) {
    throw new SessionInputError(
      `At most ${MAX_IMAGES_PER_MESSAGE} images go with one message; remove some and send again.`,
    );
  }
  return raw.map((image, index) => {
    const label = image.name ? `"${image.name}"` : `Image ${index + 1}`;
    const data = image.data.replace(/^data:[^,]*,/, "").replace(/\s+/g, "");
    if (!data || data.length % 4 !== 0 || !base64Pattern.test(data)) {
      throw new SessionInputError(`${label} could not be read; attach the file again.`);
    }
    const bytes = Buffer.from(data, "base64");
    if (bytes.length > MAX_IMAGE_BYTES) {
      throw new SessionInputError(
        `${label} is ${megabytes(bytes.length)}; images can be at most ${megabytes(MAX_IMAGE_BYTES)}. Shrink it and attach it again.`,
      );
    }
    const sniffed = sniffImageType(bytes);
    if (!sniffed) {
      throw new SessionInputError(`${label} is not an image the app can send; use PNG, JPEG, WebP or GIF.`);
    }
    return {
      mimeType: sniffed,
      data,
      bytes: bytes.length,
      ...(image.name ? { name: image.name.slice(0, 200) } : {}),
    };
  });
}

export const imagesOf = (meta: { [key: string]: unknown }): ImageAttachment[] =>
  Array.isArray(meta["images"]) ? (meta["images"] as unknown as ImageAttachment[]) : [];

/**
 * An image a tool's result carries (docs/contract.md §13.3 step 4: an MCP tool's image content),
 * kept on the tool message as `meta.toolImages`: shown on the tool's card, and sent to the model
 * — as an image to a vision model, else described through the `vision` slot.
 */
export interface ToolResultImage {
  mimeType: ImageMimeType;
  /** Base64, no `data:` prefix. */
  data: string;
}

export const toolImagesOf = (meta: { [key: string]: unknown }): ToolResultImage[] =>
  Array.isArray(meta["toolImages"]) ? (meta["toolImages"] as unknown as ToolResultImage[]) : [];

/** The images a message carries for the model: a person's attachments, or a tool result's images. */
export const messageImagesOf = (record: {
  role: string;
  meta: { [key: string]: unknown };
}): readonly ToolResultImage[] =>
  record.role === "user" ? imagesOf(record.meta) : record.role === "tool" ? toolImagesOf(record.meta) : [];

export const dataUrl = (image: ToolResultImage): string => `data:${image.mimeType};base64,${image.data}`;
