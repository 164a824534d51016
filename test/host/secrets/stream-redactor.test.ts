import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../electron/host/secrets/redaction.js";
import { StreamRedactor } from "../../../electron/host/secrets/stream-redactor.js";

const KEY = "plainvaultkey0123456789abcdef";
const redact = createRedactor({ knownKeys: () => [KEY], enabled: () => false }).redact;
const knownKeys = () => [KEY];

/** Feeds `text` cut at `cuts`, returns every release and their sum. */
function stream(text: string, cuts: number[]): { pieces: string[]; whole: string } {
  const redactor = new StreamRedactor(redact, knownKeys);
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
    `glued:${KEY}, or key=${KEY}. Then sk-proj-${"z".repeat(30)} and ghp_${"q".repeat(36)} end`,
    `See https://user:${"p4ss".repeat(4)}@example.invalid/x and AKIA${"Q".repeat(16)} done`,
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

  it("lets ordinary words out at once and holds only what could grow into a secret", () => {
    const redactor = new StreamRedactor(redact, knownKeys);
    expect(redactor.push("Hello")).toBe("Hello");
    expect(redactor.push(" there, it was")).toBe(" there, it ");
    expect(redactor.push(" a Bear")).toBe("was a ");
    expect(redactor.push("er tok")).toBe("");
    expect(redactor.push(`en${"0".repeat(20)} ok`)).toBe(`Bearer *** ok`);
    expect(redactor.push(" plainvault")).toBe(" ");
    expect(redactor.flush()).toBe("plainvault");
  });
});
