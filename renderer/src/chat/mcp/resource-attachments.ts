/**
 * MCP resources waiting in the composer to go with the next message (docs/contract.md §13.4):
 * a text resource goes as a block after the message's text, naming its server and URI; an image
 * goes as an image of the message. Other binary content can't go to the model and is refused.
 */
import { useCallback, useState } from "react";
import type { McpResourceContents } from "../../../../electron/host/rpc/methods/mcp.js";
import { IMAGE_MIME_TYPES, type SessionImageInput } from "../../../../electron/host/rpc/methods/sessions.js";

export interface AttachedResource {
  server: string;
  uri: string;
  name: string;
  texts: { uri: string; mimeType?: string; text: string }[];
  images: SessionImageInput[];
}

/** The read contents as an attachment; a reason in words when nothing in them can go. */
export function attachmentOf(
  server: string,
  uri: string,
  name: string,
  contents: readonly McpResourceContents[],
): AttachedResource | string {
  const texts: AttachedResource["texts"] = [];
  const images: SessionImageInput[] = [];
  const refused: string[] = [];
  for (const item of contents) {
    if ("text" in item)
      texts.push({ uri: item.uri, ...(item.mimeType ? { mimeType: item.mimeType } : {}), text: item.text });
    else if (item.mimeType && (IMAGE_MIME_TYPES as readonly string[]).includes(item.mimeType))
      images.push({ mimeType: item.mimeType, data: item.blob, name });
    else refused.push(item.mimeType ?? "binary data");
  }
  if (texts.length === 0 && images.length === 0) {
    return refused.length
      ? `${name} is ${refused.join(", ")}, which can't go with a message: only text and images can.`
      : `${name} is empty.`;
  }
  return { server, uri, name, texts, images };
}

/** The message's text with each text resource after it, as a block the model can tell apart. */
export function textWithResources(text: string, resources: readonly AttachedResource[]): string {
  const blocks = resources.flatMap((resource) =>
    resource.texts.map(
      (item) =>
        `<resource server="${resource.server}" uri="${item.uri}"${item.mimeType ? ` mimeType="${item.mimeType}"` : ""}>\n${item.text}\n</resource>`,
    ),
  );
  return [text.trim(), ...blocks].filter(Boolean).join("\n\n");
}

export function useResourceAttachments() {
  const [resources, setResources] = useState<AttachedResource[]>([]);
  return {
    resources,
    add: useCallback((resource: AttachedResource) => setResources((list) => [...list, resource]), []),
    remove: useCallback((index: number) => setResources((list) => list.filter((_, i) => i !== index)), []),
    clear: useCallback(() => setResources([]), []),
  };
}
