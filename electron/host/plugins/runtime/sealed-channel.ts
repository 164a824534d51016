/**
 * The pipe between the host and the plugin host, sealed (docs/contract.md §5.4). Node's permission
 * model does not check file descriptors, so code in any plugin's worker can write to the plugin
 * host's pipe (forging frames that name another plugin, or bytes that break the framing) or read
 * from it (stealing a frame meant for another plugin). So every frame is encrypted and
 * authenticated (AES-256-GCM) with a key only the host and the plugin host's main thread hold, and
 * numbered per direction: the nonce is the direction and the frame's number, so a frame replayed,
 * reordered, dropped or sent back the other way fails its check. A frame that fails, or a length
 * that cannot be, means someone else used the pipe: the channel is given up and the host restarts
 * the plugin host, and nothing forged is ever acted on and nothing stolen can be read.
 *
 * The key reaches the plugin host in its environment (CHANNEL_KEY_ENV), which its main thread
 * clears before any worker starts; workers get an empty environment and cannot read /proc.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Duplex } from "node:stream";
import { decodeWire, encodeWire } from "./wire-codec.js";

export const CHANNEL_KEY_ENV = "HERMES_PLUGIN_CHANNEL_KEY";
/** The plugin host's fd for the pipe: stdio slot 3, after stdin, stdout and stderr. */
export const CHANNEL_FD = 3;
/** Exit code of a plugin host that found its channel tampered with. */
export const EXIT_CHANNEL_TAMPERED = 79;

export type ChannelDirection = "to-plugin-host" | "to-host";
const directionIds: Record<ChannelDirection, number> = { "to-plugin-host": 1, "to-host": 2 };

const KEY_BYTES = 32;
const TAG_BYTES = 16;
const LENGTH_BYTES = 4;
/** Far above any real frame (a plugin's state is bounded well below it); anything larger is forged. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

export class ChannelTamperedError extends Error {
  constructor(detail: string) {
    super(`the plugin host's channel to the app was tampered with (${detail})`);
    this.name = "ChannelTamperedError";
  }
}

export function newChannelKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** The key from its environment form; throws when it is not one. */
export function parseChannelKey(hex: string | undefined): Buffer {
  const key = Buffer.from(hex ?? "", "hex");
  if (key.length !== KEY_BYTES)
    throw new Error(`${CHANNEL_KEY_ENV} is missing or is not a ${KEY_BYTES}-byte key`);
  return key;
}

function nonce(direction: ChannelDirection, counter: bigint): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(directionIds[direction], 0);
  bytes.writeBigUInt64BE(counter, 4);
  return bytes;
}

/** Seals frames going one way: `[length][ciphertext][tag]`. */
export class FrameSealer {
  private counter = 0n;

  constructor(
    private readonly key: Buffer,
    private readonly direction: ChannelDirection,
  ) {}

  seal(plaintext: Buffer): Buffer {
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce(this.direction, this.counter++));
    const body = cipher.update(plaintext);
    const rest = cipher.final();
    const tag = cipher.getAuthTag();
    const length = body.length + rest.length + TAG_BYTES;
    const frame = Buffer.allocUnsafe(LENGTH_BYTES + length);
    frame.writeUInt32BE(length, 0);
    body.copy(frame, LENGTH_BYTES);
    rest.copy(frame, LENGTH_BYTES + body.length);
    tag.copy(frame, LENGTH_BYTES + body.length + rest.length);
    return frame;
  }
}

/** Opens frames coming one way, from a byte stream cut anywhere. */
export class FrameOpener {
  private counter = 0n;
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The whole size of the frame being read, once its length is in. */
  private frameBytes: number | null = null;
  private broken: ChannelTamperedError | null = null;

  constructor(
    private readonly key: Buffer,
    private readonly direction: ChannelDirection,
  ) {}

  /** The whole frames `chunk` completes; throws ChannelTamperedError (and keeps throwing) on a bad one. */
  push(chunk: Buffer): Buffer[] {
    if (this.broken) throw this.broken;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const opened: Buffer[] = [];
    for (;;) {
      if (this.frameBytes === null) {
        if (this.buffered < LENGTH_BYTES) return opened;
        const length = this.join().readUInt32BE(0);
        if (length < TAG_BYTES || length > MAX_FRAME_BYTES) throw this.fail(`a frame of ${length} bytes`);
        this.frameBytes = LENGTH_BYTES + length;
      }
      if (this.buffered < this.frameBytes) return opened;
      const all = this.join();
      opened.push(this.open(all.subarray(LENGTH_BYTES, this.frameBytes)));
      const rest = all.subarray(this.frameBytes);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
      this.frameBytes = null;
    }
  }

  private join(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0]!;
  }

  private open(sealed: Buffer): Buffer {
    const decipher = createDecipheriv("aes-256-gcm", this.key, nonce(this.direction, this.counter));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      const body = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
      const rest = decipher.final();
      this.counter++;
      return rest.length ? Buffer.concat([body, rest]) : body;
    } catch {
      throw this.fail(`frame ${this.counter} failed its check`);
    }
  }

  private fail(detail: string): ChannelTamperedError {
    this.broken = new ChannelTamperedError(detail);
    this.chunks = [];
    this.buffered = 0;
    return this.broken;
  }
}

export interface SealedChannelEvents<In> {
  onMessage(message: In): void;
  /** Someone else used the pipe; nothing more is read from it. */
  onTampered(error: ChannelTamperedError): void;
  /** The other side went away. */
  onClose(): void;
}

/**
 * Messages over a sealed pipe, in the wire codec (JSON when it carries the message exactly, a
 * V8 envelope when not), so both ends see what a structured clone would give.
 */
export class SealedChannel<Out, In> {
  private readonly sealer: FrameSealer;
  private readonly opener: FrameOpener;
  private open = true;

  constructor(
    private readonly pipe: Duplex,
    key: Buffer,
    sends: ChannelDirection,
    events: SealedChannelEvents<In>,
  ) {
    this.sealer = new FrameSealer(key, sends);
    this.opener = new FrameOpener(key, sends === "to-host" ? "to-plugin-host" : "to-host");
    pipe.on("data", (chunk: Buffer) => {
      if (!this.open) return;
      let frames: Buffer[];
      try {
        frames = this.opener.push(chunk);
      } catch (error) {
        this.open = false;
        events.onTampered(error as ChannelTamperedError);
        return;
      }
      for (const frame of frames) {
        let message: In;
        try {
          message = decodeWire(JSON.parse(frame.toString("utf8")) as In);
        } catch {
          // Sealed with the key yet not a message: only our own two ends hold the key, so this is a bug, not an attack.
          this.open = false;
          events.onTampered(new ChannelTamperedError("a sealed frame that is not a message"));
          return;
        }
        events.onMessage(message);
      }
    });
    const closed = () => {
      if (!this.open) return;
      this.open = false;
      events.onClose();
    };
    pipe.on("end", closed);
    pipe.on("close", closed);
    // A write to a closed pipe ends the channel like its close does.
    pipe.on("error", closed);
  }

  get connected(): boolean {
    return this.open && !this.pipe.destroyed;
  }

  send(message: Out): void {
    if (!this.connected) return;
    this.pipe.write(this.sealer.seal(Buffer.from(JSON.stringify(encodeWire(message)), "utf8")));
  }

  close(): void {
    this.open = false;
    this.pipe.destroy();
  }
}
