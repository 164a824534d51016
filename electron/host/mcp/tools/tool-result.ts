/**
 * An MCP tool result as the model reads it (docs/contract.md §13.3 step 4): text as is, embedded
 * resources as text, images kept for the card and the model (the sessions layer sends them, or
 * their descriptions for a text-only model), resource links kept for the card (and named),
 * `structuredContent` as JSON when no text says it, `isError` as an error. Unicode tag characters
 * (U+E0000–E007F, a prompt-injection carrier) are stripped; more than 256 KB of text is cut with a note.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sniffImageType } from "../../rpc/shared-rules/image-types.js";
import type { ToolResultImage } from "../../sessions/input/image-attachments.js";

export const MAX_RESULT_BYTES = 256 * 1024;
/** An image larger than this is named but not kept (for the card or the model). */
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export interface ConvertedResult {
  isError: boolean;
  text: string;
  /** PNG, JPEG, WebP or GIF by their bytes, at most 2 MB each: for the card and the model. */
  images: ToolResultImage[];
  links: { uri: string; name: string; mimeType?: string }[];
}

const TAG_CHARACTERS = /[\u{E0000}-\u{E007F}]/gu;

/** Every tag character's UTF-16 form starts with this high surrogate: text without it has none. */
const TAG_HIGH_SURROGATE = "\uDB40";

export function stripTagCharacters(text: string): string {
  // On every result: the regex runs only when a tag character can be there.
  return text.includes(TAG_HIGH_SURROGATE) ? text.replace(TAG_CHARACTERS, "") : text;
}

export function convertToolResult(result: CallToolResult): ConvertedResult {
  const parts: string[] = [];
  const images: ConvertedResult["images"] = [];
  const links: ConvertedResult["links"] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case "text":
        parts.push(item.text);
        break;
      case "image": {
        const bytes = Math.floor((item.data.length * 3) / 4);
        // The type is read from the bytes: what a server declares is not trusted.
        const mimeType = bytes <= MAX_IMAGE_BYTES ? sniffImageType(Buffer.from(item.data, "base64")) : null;
        if (mimeType) {
          images.push({ mimeType, data: item.data });
          parts.push(`[image ${mimeType}, ${formatBytes(bytes)}]`);
        } else {
          parts.push(
            `[image ${item.mimeType}, ${formatBytes(bytes)}, not shown: ${bytes > MAX_IMAGE_BYTES ? "larger than 2 MB" : "not a PNG, JPEG, WebP or GIF"}]`,
          );
        }
        break;
      }
      case "audio":
        parts.push(`[audio ${item.mimeType}, ${formatBytes(Math.floor((item.data.length * 3) / 4))}]`);
        break;
      case "resource": {
        const resource = item.resource;
        if ("text" in resource && typeof resource.text === "string") {
          parts.push(
            `Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}:\n${resource.text}`,
          );
        } else {
          const size = "blob" in resource ? Math.floor((String(resource.blob).length * 3) / 4) : 0;
          parts.push(
            `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}, ${formatBytes(size)} of binary data]`,
          );
        }
        break;
      }
      case "resource_link":
        links.push({ uri: item.uri, name: item.name, ...(item.mimeType ? { mimeType: item.mimeType } : {}) });
        parts.push(`Link: ${item.name} <${item.uri}>${item.description ? ` — ${item.description}` : ""}`);
        break;
      default:
        parts.push(`[${(item as { type: string }).type} content]`);
    }
  }
  if (result.structuredContent !== undefined && !parts.some((p) => p.trim())) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  return {
    isError: result.isError === true,
    text: cutToLimit(stripTagCharacters(parts.join("\n"))),
    images,
    links,
  };
}

/** At most MAX_RESULT_BYTES of UTF-8, cut at a character boundary, with a note saying so. */
export function cutToLimit(text: string): string {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: short text needs no count.
  if (text.length * 3 <= MAX_RESULT_BYTES) return text;
  const size = Buffer.byteLength(text, "utf8");
  if (size <= MAX_RESULT_BYTES) return text;
  let cut = Buffer.from(text, "utf8").subarray(0, MAX_RESULT_BYTES).toString("utf8");
  // A character split by the cut decodes as U+FFFD: drop it.
  if (cut.endsWith("\uFFFD")) cut = cut.slice(0, -1);
  return `${cut}\n[The result was ${formatBytes(size)}; it was cut to the first 256 KB.]`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
