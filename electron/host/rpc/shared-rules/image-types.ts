/**
 * How an attached image is recognised (docs/contract.md §9.1): by its first bytes, never its name or
 * declared type. Part of the contract so the composer refuses a file when it is attached, and the
 * host checks the same way when the message is sent.
 */
import type { IMAGE_MIME_TYPES } from "../methods/sessions.js";

export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

/** Bytes enough to tell the four types apart. */
export const IMAGE_SIGNATURE_BYTES = 12;

/** The type the bytes say, or null when they are none of the four. */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (from: number, text: string) =>
    [...text].every((ch, i) => bytes[from + i] === ch.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return "image/gif";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  return null;
}
