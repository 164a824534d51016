import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../electron/host/secrets/redaction.js";

// All values are fake; they only have the shape of real credentials.
const OPENAI_KEY = "sk-test0000000000000000000000000000wxyz";
const OPENAI_PROJECT_KEY = "sk-proj-test000000000000000000000000000wxyz";
const OPENROUTER_KEY = "sk-or-v1-0000000000000000000000000000000000000000000000000000000000000abc";
const ANTHROPIC_KEY = "sk-ant-api03-test00000000000000000000000000000000000000000-wxyzAA";
const GITHUB_TOKEN = "ghp_test00000000000000000000000000000wxyz";
const GITHUB_PAT = "github_pat_test0000000000_00000000000000000000000000000000000wxyz";
const AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
const AWS_SESSION_KEY_ID = "ASIAIOSFODNN7EXAMPLE";
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

function redactorWith(options: { keys?: string[]; enabled?: boolean } = {}) {
  const keys = options.keys ?? [];
  return createRedactor({ knownKeys: () => keys, enabled: () => options.enabled ?? true }).redact;
}

/** No secret may survive, nor its tail beyond the 4 characters a mask may keep. */
function expectGone(output: string, secret: string) {
  expect(output).not.toContain(secret);
  expect(output).not.toContain(secret.slice(-5));
}

describe("redact: known key shapes", () => {
  const redact = redactorWith();
  const cases: [label: string, secret: string, masked: string][] = [
    ["OpenAI key", OPENAI_KEY, "sk-***"],
    ["OpenAI project key", OPENAI_PROJECT_KEY, "sk-proj-***"],
    ["OpenRouter key", OPENROUTER_KEY, "sk-or-v1-***"],
    ["Anthropic key", ANTHROPIC_KEY, "sk-ant-api03-***"],
    ["GitHub token", GITHUB_TOKEN, "ghp_***"],
    ["GitHub fine-grained token", GITHUB_PAT, "github_pat_***"],
    ["AWS access key id", AWS_ACCESS_KEY_ID, "AKIA***"],
    ["AWS session key id", AWS_SESSION_KEY_ID, "ASIA***"],
  ];

  it.each(cases)("masks an %s and keeps its recognisable prefix", (_label, secret, masked) => {
    const output = redact(`request failed with key=${secret}, retrying`);
    expect(output).toBe(`request failed with key=${masked}, retrying`);
    expectGone(output, secret);
  });

  it("masks an AWS secret access key assignment", () => {
    expect(redact(`aws_secret_access_key = ${AWS_SECRET}\nregion = eu-west-1`)).toBe(
      "aws_secret_access_key = ***\nregion = eu-west-1",
    );
    expect(redact(`AWS_SECRET_ACCESS_KEY="${AWS_SECRET}"`)).toBe('AWS_SECRET_ACCESS_KEY="***"');
  });

  it("masks bearer tokens and basic credentials in headers", () => {
    const token = "eyJfake0.fake-payload_0000.sig0wxyz";
    const output = redact(`Authorization: Bearer ${token}`);
    expect(output).toBe("Authorization: Bearer ***");
    expectGone(output, token);
    expect(redact("authorization: basic ZmFrZTpmYWtlLXBhc3N3b3Jk")).toBe("authorization: basic ***");
  });

  it("keeps the key prefix when a bearer header carries a known key shape", () => {
    expect(redact(`Authorization: Bearer ${OPENROUTER_KEY}`)).toBe("Authorization: Bearer sk-or-v1-***");
  });

  it("masks values of well-known secret names", () => {
    expect(redact('{"api_key": "fake-0000-value", "model": "x"}')).toBe('{"api_key": "***", "model": "x"}');
    expect(redact("GET /v1/models?apikey=fake0000value&limit=5")).toBe("GET /v1/models?apikey=***&limit=5");
    expect(redact("x-api-key: fake-0000-value")).toBe("x-api-key: ***");
    expect(redact("password=fake-pass-0000")).toBe("password=***");
  });
});

describe("redact: credentials in URLs", () => {
  const redact = redactorWith();

  it("masks the password and keeps scheme, user, host and path", () => {
    expect(redact("connecting to postgres://admin:fake-pass-0000@db.example:5432/app ...")).toBe(
      "connecting to postgres://admin:***@db.example:5432/app ...",
    );
    expect(redact("proxy https://user:p%40ssw0rd-fake@proxy.example")).toBe(
      "proxy https://user:***@proxy.example",
    );
  });

  it("leaves URLs without credentials alone", () => {
    const text = "base_url http://127.0.0.1:8080/v1 and https://openrouter.ai/api/v1?x=1";
    expect(redact(text)).toBe(text);
  });
});

describe("redact: PEM private keys", () => {
  const redact = redactorWith();
  const body = "MIIEfake0000000000000000\nAAAAfake1111111111111111\nBBBBfake2222wxyz";

  it("masks the whole block, keeping its labels and the surrounding text", () => {
    const text = `before\n-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\nafter`;
    const output = redact(text);
    expect(output).toBe("before\n-----BEGIN RSA PRIVATE KEY-----***-----END RSA PRIVATE KEY-----\nafter");
    expectGone(output, body);
  });

  it("masks a JSON-escaped block and an unterminated one", () => {
    const escaped = `{"key":"-----BEGIN PRIVATE KEY-----\\nMIIEfake00000000wxyz\\n-----END PRIVATE KEY-----\\n"}`;
    expect(redact(escaped)).toBe(`{"key":"-----BEGIN PRIVATE KEY-----***-----END PRIVATE KEY-----\\n"}`);
    const cut = `key: -----BEGIN OPENSSH PRIVATE KEY-----\n${body}`;
    const output = redact(cut);
    expect(output).toBe("key: -----BEGIN OPENSSH PRIVATE KEY-----***-----END OPENSSH PRIVATE KEY-----");
    expectGone(output, body);
  });

  it("does not touch public keys or certificates", () => {
    const text = "-----BEGIN PUBLIC KEY-----\nMIIBfake\n-----END PUBLIC KEY-----";
    expect(redact(text)).toBe(text);
  });
});

describe("redact: keys known to the vault", () => {
  it("masks every literal vault key, whatever its shape", () => {
    const custom = "local-llama-key-0000wxyz";
    const redact = redactorWith({ keys: [custom] });
    const output = redact(`sent ${custom} to http://127.0.0.1:8080 (${custom})`);
    expect(output).toBe("sent *** to http://127.0.0.1:8080 (***)");
  });

  it("masks the longest key first so no tail of a longer key is left", () => {
    const short = "fake0000key";
    const long = "fake0000key-with-tail-wxyz";
    const redact = redactorWith({ keys: [short, long] });
    const output = redact(`a=${long} b=${short}`);
    expect(output).toBe("a=*** b=***");
    expectGone(output, long);
  });

  it("ignores keys shorter than 8 characters, which would mask ordinary words", () => {
    const redact = redactorWith({ keys: ["token", "abc1234"] });
    expect(redact("the token abc1234 is short")).toBe("the token abc1234 is short");
  });

  it("picks up keys the vault learns after the redactor was made", () => {
    const keys: string[] = [];
    const redact = createRedactor({ knownKeys: () => [...keys], enabled: () => true }).redact;
    expect(redact("value fake-later-0000wxyz")).toBe("value fake-later-0000wxyz");
    keys.push("fake-later-0000wxyz");
    expect(redact("value fake-later-0000wxyz")).toBe("value ***");
  });

  it("treats regular-expression characters in keys literally", () => {
    const odd = "fake.key+(0000)*wxyz";
    const redact = redactorWith({ keys: [odd] });
    expect(redact(`k=${odd} other=fakeXkey+(0000)*wxyz`)).toBe("k=*** other=fakeXkey+(0000)*wxyz");
  });
});

describe("redact: enabled and force", () => {
  const text = `key ${OPENROUTER_KEY}`;

  it("returns the text unchanged when redaction is disabled and not forced", () => {
    expect(redactorWith({ enabled: false })(text)).toBe(text);
  });

  it("masks with force even when redaction is disabled", () => {
    expect(redactorWith({ enabled: false })(text, { force: true })).toBe("key sk-or-v1-***");
  });

  it("reads the setting on every call", () => {
    let enabled = true;
    const redact = createRedactor({ knownKeys: () => [], enabled: () => enabled }).redact;
    expect(redact(text)).toBe("key sk-or-v1-***");
    enabled = false;
    expect(redact(text)).toBe(text);
  });
});

describe("redact: text without secrets", () => {
  it("leaves ordinary prose, code and logs unchanged", () => {
    const redact = redactorWith({ keys: ["fake-vault-key-0000"] });
    const text = [
      "Use a Bearer token in the Authorization header.",
      "pip install scikit-learn; import sk-learn as sk",
      "task-sk-1 finished: 3 passwords reset, password reset link sent",
      "GET http://localhost:8080/v1/models 200 in 12 ms",
      "model=openrouter/anthropic/claude, tokens=1234, cost=$0.0012",
      "-----BEGIN CERTIFICATE-----",
    ].join("\n");
    expect(redact(text)).toBe(text);
    expect(redact("")).toBe("");
  });
});

describe("redact: asks whether masking is on only when something would be masked", () => {
  // `enabled` reads the settings (a stat of config.yaml): text with nothing to mask skips it.
  function counted(enabled: boolean, keys: string[] = []) {
    let asked = 0;
    const { redact } = createRedactor({
      knownKeys: () => keys,
      enabled: () => {
        asked += 1;
        return enabled;
      },
    });
    return { redact, asked: () => asked };
  }

  it("answers plain text without asking, and with masking off changes nothing", () => {
    const vaultKey = "vault-key-0123456789abcdef";
    const on = counted(true, [vaultKey]);
    expect(on.redact("The answer is 42.")).toBe("The answer is 42.");
    expect(on.asked()).toBe(0);
    expect(on.redact(`token ${vaultKey} here`)).not.toContain(vaultKey);
    expect(on.redact("key sk-test-0000000000000000000000000000abcd")).not.toContain("0000abcd");
    expect(on.asked()).toBe(2);
    const off = counted(false, [vaultKey]);
    expect(off.redact(`token ${vaultKey} here`)).toBe(`token ${vaultKey} here`);
    expect(off.asked()).toBe(1);
  });

  it("a forced call masks without asking, and a known key is found at any position, call after call", () => {
    const vaultKey = "vault-key-0123456789abcdef";
    const { redact, asked } = counted(false, [vaultKey]);
    for (let i = 0; i < 3; i++) {
      expect(redact(`${"x".repeat(i * 7)} ${vaultKey}`, { force: true })).not.toContain(vaultKey);
    }
    expect(asked()).toBe(0);
  });
});
