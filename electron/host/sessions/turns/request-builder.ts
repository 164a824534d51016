/**
 * Turns a frozen snapshot and the stored transcript into the messages of a model request.
 * What the model never sees: notices, slash-command exchanges, messages still waiting their turn
 * (queued or not-yet-injected steers), messages the host quit before sending (`notSent`), and tool
 * calls whose result was never recorded (a stop between a call and its result would otherwise make
 * the provider reject the request).
 */
import type { ChatMessage, ToolCall } from "../../llm/chat-request.js";
import { dataUrl, imagesOf, toolImagesOf, type ToolResultImage } from "../input/image-attachments.js";
import type { MessageRecord, SessionSnapshot } from "../store/types.js";

/**
 * A person's message as the model gets it: its images as image parts, or — when the vision slot
 * described them because the main model is text-only — the descriptions in their place.
 */
function userContent(record: MessageRecord): ChatMessage["content"] {
  const images = imagesOf(record.meta);
  if (images.length === 0) return record.content;
  const described = record.meta.imageDescriptions;
  if (Array.isArray(described)) {
    const notes = described.map((d, i) => `[Image ${i + 1}, described by the vision model: ${String(d)}]`);
    return [record.content, ...notes].filter(Boolean).join("\n\n");
  }
  if (typeof record.meta.imageError === "string") {
    return [
      record.content,
      `[${images.length} image(s) attached but not readable by this model: ${record.meta.imageError}]`,
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  return [
    ...(record.content ? [{ type: "text" as const, text: record.content }] : []),
    ...images.map((image) => ({ type: "image_url" as const, image_url: { url: dataUrl(image) } })),
  ];
}

/**
 * A tool result as the model gets it (docs/contract.md §13.3 step 4): its text, with its images'
 * descriptions when the vision slot described them for a text-only model (or why it could not).
 * A vision model gets the images themselves, in a user message after the tool results
 * (`toolImageMessage`): tool messages carry text only.
 */
function toolContent(record: MessageRecord): string {
  const images = toolImagesOf(record.meta);
  if (images.length === 0) return record.content;
  const described = record.meta.imageDescriptions;
  if (Array.isArray(described)) {
    const notes = described.map(
      (d, i) => `[Image ${i + 1} of this result, described by the vision model: ${String(d)}]`,
    );
    return [record.content, ...notes].filter(Boolean).join("\n\n");
  }
  if (typeof record.meta.imageError === "string") {
    return [
      record.content,
      `[${images.length} image(s) in this result, not readable by this model: ${record.meta.imageError}]`,
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  return record.content;
}

/** The images of tool results that go to a vision model as they are (not described). */
function imagesForModel(record: MessageRecord): ToolResultImage[] {
  if (Array.isArray(record.meta.imageDescriptions) || typeof record.meta.imageError === "string") return [];
  return toolImagesOf(record.meta);
}

function toolImageMessage(batch: { tool: string; callId: string; images: ToolResultImage[] }[]): ChatMessage {
  return {
    role: "user",
    content: batch.flatMap(({ tool, callId, images }) => [
      {
        type: "text" as const,
        text: `The image${images.length === 1 ? "" : "s"} returned by the tool ${tool} (call ${callId}):`,
      },
      ...images.map((image) => ({ type: "image_url" as const, image_url: { url: dataUrl(image) } })),
    ]),
  };
}

export function isPending(record: MessageRecord): boolean {
  return record.meta.pending === true;
}

/** A message that was still waiting when the host quit (see `markPendingAsNotSent`). */
export function isNotSent(record: MessageRecord): boolean {
  return record.meta.notSent === true;
}

/** A message of an earlier version of an edited exchange (see message-edits.ts). */
export function isArchivedVersion(record: MessageRecord): boolean {
  return typeof record.meta.archived === "object" && record.meta.archived !== null;
}

export function isCommandExchange(record: MessageRecord): boolean {
  return typeof record.meta.command === "string";
}

export function systemMessages(snapshot: SessionSnapshot): ChatMessage[] {
  const system = [
    snapshot.chatSystemPrompt ?? "",
    snapshot.systemPrompt,
    snapshot.ephemeralSystemPrompt ?? "",
  ]
    .map((part) => part.trim())
    .filter(Boolean)
    .join("\n\n");
  const prefill: ChatMessage[] = snapshot.prefillMessages.map((m) =>
    m.role === "assistant" ? { role: "assistant", content: m.content } : { role: m.role, content: m.content },
  );
  return [...(system ? [{ role: "system" as const, content: system }] : []), ...prefill];
}

export function historyMessages(records: readonly MessageRecord[]): ChatMessage[] {
  const visible = records.filter(
    (r) =>
      !isPending(r) &&
      !isNotSent(r) &&
      !isCommandExchange(r) &&
      !isArchivedVersion(r) &&
      r.role !== "notice" &&
      r.role !== "system",
  );
  const answered = new Set(
    visible
      .filter((r) => r.role === "tool" && typeof r.meta.toolCallId === "string")
      .map((r) => r.meta.toolCallId),
  );
  const offered = new Set<string>();
  const out: ChatMessage[] = [];
  // Tool results' images wait until the batch of tool messages ends: nothing may come between an
  // assistant's tool calls and their results.
  let pendingImages: { tool: string; callId: string; images: ToolResultImage[] }[] = [];
  const flushImages = () => {
    if (pendingImages.length) out.push(toolImageMessage(pendingImages));
    pendingImages = [];
  };
  for (const record of visible) {
    if (record.role !== "tool") flushImages();
    if (record.role === "user") {
      const content = userContent(record);
      if (content) out.push({ role: "user", content });
    } else if (record.role === "assistant") {
      const calls: ToolCall[] = (record.meta.toolCalls ?? [])
        .filter((c) => answered.has(c.id))
        .map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
      calls.forEach((c) => offered.add(c.id));
      if (calls.length) out.push({ role: "assistant", content: record.content || null, tool_calls: calls });
      else if (record.content) out.push({ role: "assistant", content: record.content });
    } else if (record.role === "tool") {
      const id = record.meta.toolCallId;
      if (typeof id === "string" && offered.has(id)) {
        out.push({ role: "tool", content: toolContent(record), tool_call_id: id });
        const images = imagesForModel(record);
        if (images.length)
          pendingImages.push({ tool: String(record.meta.toolName ?? "tool"), callId: id, images });
      }
    }
  }
  flushImages();
  return out;
}

/** The latest compaction marker (docs/contract.md §9.1): its summary stands in for every turn up to `throughSeq`. */
export function compactionOf(
  records: readonly MessageRecord[],
): { summary: string; throughSeq: number } | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    const compaction = record.meta.compaction as { throughSeq?: unknown } | undefined;
    if (record.meta.notice === "compaction" && typeof compaction?.throughSeq === "number") {
      return { summary: record.content, throughSeq: compaction.throughSeq };
    }
  }
  return null;
}

/** The records a request still carries in full: those after the latest compaction. */
export function visibleAfterCompaction(records: readonly MessageRecord[]): readonly MessageRecord[] {
  const compaction = compactionOf(records);
  return compaction ? records.filter((r) => r.seq > compaction.throughSeq) : records;
}

export function requestMessages(snapshot: SessionSnapshot, records: readonly MessageRecord[]): ChatMessage[] {
  const compaction = compactionOf(records);
  const summary: ChatMessage[] = compaction
    ? [{ role: "system", content: `Summary of the earlier conversation:\n${compaction.summary}` }]
    : [];
  return [...systemMessages(snapshot), ...summary, ...historyMessages(visibleAfterCompaction(records))];
}
