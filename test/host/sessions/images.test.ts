/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
/**
 * Images in chat (docs/contract.md §9.1): checked by their bytes, kept with the message in the store, sent as
 * image parts to a vision model, else described through the `vision` slot and the description
 * sent in their place (marked on the message).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sniffImageType } from "../../../electron/host/sessions/input/image-attachments.js";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

const PNG_1PX =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const png = { mimeType: "image/png", data: PNG_1PX, name: "dot.png" };

let rig: SessionRig;
afterEach(async () => rig.dispose());

describe("attachments that are refused, with what to do", () => {
  beforeEach(async () => {
    rig = await startSessionRig();
  });

  it("too big, not an image, unreadable, too many", async () => {
    const { sessionId } = await rig.ok("session.create", {});
    const big = Buffer.concat([Buffer.from(PNG_1PX, "base64"), Buffer.alloc(5 * 1024 * 1024 + 10)]).toString(
      "base64",
    );
    const cases: [unknown, RegExp][] = [
      [
        [{ mimeType: "image/png", data: big, name: "huge.png" }],
        /"huge.png" is 5\.0 MB; images can be at most 5\.0 MB/,
      ],
      [
        [{ mimeType: "image/png", data: Buffer.from("just some text").toString("base64") }],
        /not an image.*PNG, JPEG, WebP or GIF/,
      ],
      [[{ mimeType: "image/png", data: "%%%not base64%%%" }], /could not be read; attach the file again/],
      [Array(5).fill(png), /At most 4 images/],
    ];
    for (const [images, message] of cases) {
      const reply = await rig.call("session.send", { sessionId, text: "look", images });
      expect(reply.error?.message).toMatch(message);
    }
    expect((await rig.ok("session.messages", { sessionId })).messages).toEqual([]);
    expect(rig.main.requests).toHaveLength(0);
  });

  it("knows the four types by their bytes", () => {
    expect(sniffImageType(Buffer.from(PNG_1PX, "base64"))).toBe("image/png");
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("GIF89a...."))).toBe("image/gif");
    expect(sniffImageType(Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(Buffer.from("<svg></svg>"))).toBeNull();
  });
});

describe("a text-only main model", () => {
  beforeEach(async () => {
    rig = await startSessionRig({
      configure: (doc) => {
        doc.auxiliary = { vision: { provider: "backup", model: "fake/vision" } };
      },
    });
  });

  it("gets the vision slot's description in place of the image, marked on the message", async () => {
    rig.backup.enqueue({ kind: "text", content: "A single grey pixel." });
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "What is this?", images: [png] });
    await rig.idle(sessionId);

    const visionRequest = rig.backup.requests.find((r) => (r.body as any).model === "fake/vision")!;
    expect(visionRequest).toBeDefined();
    expect(JSON.stringify(visionRequest.body)).toContain(`data:image/png;base64,${PNG_1PX}`);
    const chat = rig.main.requests.find((r) => (r.body as any).stream)!.body as any;
    const user = chat.messages.find((m: any) => m.role === "user");
    expect(user.content).toBe(
      "What is this?\n\n[Image 1, described by the vision model: A single grey pixel.]",
    );

    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages[0].meta).toMatchObject({
      images: [{ mimeType: "image/png", data: PNG_1PX, bytes: 68, name: "dot.png" }],
      imageDescriptions: ["A single grey pixel."],
      describedBy: { provider: "backup", model: "fake/vision" },
    });
    const { rows } = await rig.ok("session.usage", { sessionId });
    expect(rows.map((r: any) => r.category)).toContain("vision");
  });

  it("an image alone, without text, is a message too", async () => {
    const { sessionId } = await rig.ok("session.create", {});
    const sent = await rig.call("session.send", { sessionId, text: "", images: [png] });
    expect(sent.error).toBeUndefined();
    await rig.idle(sessionId);
    expect(rig.backup.requests.length).toBeGreaterThan(0);
  });
});

describe("a vision main model", () => {
  beforeEach(async () => {
    rig = await startSessionRig({
      configure: (doc) => {
        doc.providers!.main!.models = { "fake/chat-small": { vision: true } };
        doc.auxiliary = { vision: { provider: "backup", model: "fake/vision" } };
      },
    });
  });

  it("gets the image itself; the vision slot is not called", async () => {
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "What is this?", images: [png] });
    await rig.idle(sessionId);
    const chat = rig.main.requests.find((r) => (r.body as any).stream)!.body as any;
    expect(chat.messages.find((m: any) => m.role === "user").content).toEqual([
      { type: "text", text: "What is this?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_1PX}` } },
    ]);
    expect(rig.backup.requests).toHaveLength(0);
  });
});
