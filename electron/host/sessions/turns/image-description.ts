/**
 * Images for a text-only main model (docs/contract.md §9.1, §13.3): before a request, every image a
 * person attached or a tool result carried (an MCP tool's image content) that the model can't read
 * is described through the `vision` slot, once; the description is kept
 * on the message (`meta.imageDescriptions`, `meta.describedBy`) so the transcript can mark it and
 * later requests reuse it. A vision-capable model gets the images themselves (request-builder).
 */
import type { Settings } from "../../config/config-schema.js";
import type { AuxiliaryCaller } from "../../llm/auxiliary-call.js";
import type { Route } from "../../llm/route.js";
import type { AgentLog } from "../../logging/agent-log.js";
import { supportsVision, type ModelInfoCache } from "../../models/model-capabilities.js";
import { dataUrl, messageImagesOf } from "../input/image-attachments.js";
import { visibleAfterCompaction } from "./request-builder.js";
import type { Transcript } from "./transcript.js";

export interface ImageDescriberDeps {
  auxiliary: AuxiliaryCaller;
  transcript: Transcript;
  settings: { get(): Settings };
  modelInfo?: ModelInfoCache;
  log: AgentLog;
}

const instructions =
  "Describe this image for someone who cannot see it, so they can answer questions about it: " +
  "what it shows, any text in it (verbatim), numbers, colours and layout that matter. No preamble.";

export class ImageDescriber {
  constructor(private readonly deps: ImageDescriberDeps) {}

  async describePending(input: {
    sessionId: string;
    gatewaySessionKey: string;
    route: Route;
    signal: AbortSignal;
    /** Runs before a description request goes out (the turn writes what it still holds in memory). */
    beforeRequest?: () => void;
    /** The turn's read of the settings; read now when absent. */
    settings?: Settings;
  }): Promise<void> {
    const { transcript, settings } = this.deps;
    if (
      supportsVision(
        input.settings ?? settings.get(),
        input.route.providerId,
        input.route.model,
        this.deps.modelInfo,
      )
    )
      return;
    const waiting = visibleAfterCompaction(transcript.records(input.sessionId)).filter(
      (r) =>
        r.meta.pending !== true &&
        messageImagesOf(r).length > 0 &&
        r.meta.imageDescriptions === undefined &&
        r.meta.imageError === undefined,
    );
    if (waiting.length > 0) input.beforeRequest?.();
    for (const record of waiting) {
      if (input.signal.aborted) return;
      try {
        const descriptions: string[] = [];
        let describedBy: { provider: string; model: string } | null = null;
        for (const image of messageImagesOf(record)) {
          const outcome = await this.deps.auxiliary.complete(
            {
              task: "vision",
              sessionId: input.sessionId,
              gatewaySessionKey: input.gatewaySessionKey,
              signal: input.signal,
            },
            {
              messages: [
                {
                  role: "user",
                  content: [
                    { type: "text", text: instructions },
                    { type: "image_url", image_url: { url: dataUrl(image) } },
                  ],
                },
              ],
              max_tokens: 800,
            },
          );
          descriptions.push(outcome.text.trim() || "(the vision model returned no description)");
          describedBy = { provider: outcome.providerId, model: outcome.model };
        }
        transcript.update(record.id, { meta: { imageDescriptions: descriptions, describedBy } });
      } catch (error) {
        if (input.signal.aborted) return;
        const reason = error instanceof Error ? error.message : String(error);
        this.deps.log.write("WARN", "image_description_failed", { session: input.sessionId, error: reason });
        transcript.update(record.id, { meta: { imageError: `the vision slot failed: ${reason}` } });
      }
    }
  }
}
