import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../electron/host/secrets/redaction.js";
import { StreamRedactor } from "../../../electron/host/secrets/stream-redactor.js";

const KEY = "plainvaultkey0123456789abcdef";
const redact = createRedactor({ knownKeys: () => [KEY], enabled: () => false }).redact;

/** Feeds `text` cut at `cuts`, returns every release and their sum. */
function stream(text: string, cuts: number[]): { pieces: string[]; whole: string } {
  const redactor = new StreamRedactor(redact);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    pieces.push(redactor.push(text.slice(from, cut)));
    from = cut;
  }
  pieces.push(redactor.flush());
  return { pieces, whole: pieces.join("") };
}

describe("StreamRedactor", () => {
  const cases = [
    `Your key is ${KEY} — keep it.`,
    `curl -H "Authorization: Bearer ${"t0ken".repeat(6)}" https://x`,
    `api_key: ${"v4lue".repeat(5)} and more`,
    `-----BEGIN PRIVATE KEY-----\nMIIE${"A".repeat(40)}\n-----END PRIVATE KEY-----\nafter`,
  ];

  it.each(cases)("masks a secret cut at any position, even with redaction off: %s", (text) => {
    for (let a = 1; a < text.length; a++) {
      for (const b of [a + 1, a + 7, a + 19]) {
        const { pieces, whole } = stream(text, b < text.length ? [a, b] : [a]);
        expect(whole).toBe(redact(text, { force: true }));
        for (const piece of pieces) expect(piece).not.toContain(KEY.slice(0, 12));
      }
    }
  });

  it("lets ordinary prose out word by word", () => {
    const redactor = new StreamRedactor(redact);
    expect(redactor.push("Hello")).toBe("");
    expect(redactor.push(" there, fri")).toBe("Hello there, ");
    expect(redactor.push("end.")).toBe("");
    expect(redactor.flush()).toBe("friend.");
  });
});
