/**
 * The pipe between the host and the plugin host, sealed (docs/contract.md §5.4). Node's permission
 * model does not check file descriptors, so code in any plugin's worker can write to the plugin
 * host's end of the pipe (forging frames that name another plugin, or bytes that break the
 * framing) or read from it (stealing a frame meant for another plugin). It cannot read what the
 * plugin host writes (that comes out at the host's end, in another process), nor write into what
 * the plugin host reads (that goes in at the host's end).
 *
 * So each direction is one AES-256-CTR stream, keyed with a key only the host and the plugin
 * host's main thread hold, and every frame starts with its number and a zero check, encrypted with
 * the rest: `[length][number][zeros][body]`. What a plugin steals is ciphertext. Bytes it writes
 * are decrypted with a keystream it has never seen (the to-host direction never passes through its
 * reach), so they come out as noise: the check fails with certainty but for 2^-64, and every later
 * frame is out of step. A frame replayed, reordered or sent back the other way (another IV) fails
 * the same way. Keystream a plugin could work out from a stolen frame whose text it guessed is of
 * the to-plugin-host direction, which it can never write into. A stream cipher rather than a fresh AEAD per frame: creating a GCM context costs
 * 10–25 µs per frame in OpenSSL 3, which was half a plugin call's round trip; one `update` is ~2 µs.
 * A failed check, or a length that cannot be, means someone else used the pipe: the channel is
 * given up and the host restarts the plugin host. Nothing forged is acted on; nothing stolen reads.
 *
 * The key reaches the plugin host in its environment (CHANNEL_KEY_ENV), which its main thread
 * clears before any worker starts; workers get an empty environment and cannot read /proc.
 */
import { createCipheriv, createDecipheriv, randomBytes, type Cipher, type Decipher } from "node:crypto";
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
/** length (4) + frame number (8) + zero check (8). */
const HEADER_BYTES = 20;
/** Far above any real frame (a plugin's state is bounded well below it); anything larger is forged. */
const MAX_BODY_BYTES = 256 * 1024 * 1024;

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

/** Each direction's counter blocks start 2^120 apart, so the two keystreams never overlap. */
function streamIv(direction: ChannelDirection): Buffer {
  const iv = Buffer.alloc(16);
  iv[0] = directionIds[direction];
  return iv;
}

/** Seals frames going one way. */
export class FrameSealer {
  private counter = 0n;
  private readonly cipher: Cipher;

  constructor(key: Buffer, direction: ChannelDirection) {
    this.cipher = createCipheriv("aes-256-ctr", key, streamIv(direction));
  }

  seal(body: Buffer | string): Buffer {
    const length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
    const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
    frame.writeUInt32BE(length, 0);
    frame.writeBigUInt64BE(this.counter++, 4);
    frame.fill(0, 12, HEADER_BYTES);
    if (typeof body === "string") frame.write(body, HEADER_BYTES, "utf8");
    else body.copy(frame, HEADER_BYTES);
    return this.cipher.update(frame);
  }
}

/** Opens frames coming one way, from a byte stream cut anywhere. */
export class FrameOpener {
  private counter = 0n;
  private readonly decipher: Decipher;
  /** Decrypted bytes not yet a whole frame. */
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The body size of the frame being read, once its header checked out. */
  private bodyBytes: number | null = null;
  private broken: ChannelTamperedError | null = null;

  constructor(key: Buffer, direction: ChannelDirection) {
    this.decipher = createDecipheriv("aes-256-ctr", key, streamIv(direction));
  }

  /** The bodies of the whole frames `chunk` completes; throws ChannelTamperedError (and keeps throwing) on a bad one. */
  push(chunk: Buffer): Buffer[] {
    if (this.broken) throw this.broken;
    const plain = this.decipher.update(chunk);
    this.chunks.push(plain);
    this.buffered += plain.length;
    const opened: Buffer[] = [];
    for (;;) {
      if (this.bodyBytes === null) {
        if (this.buffered < HEADER_BYTES) return opened;
        this.bodyBytes = this.checkHeader(this.join());
      }
      if (this.buffered < HEADER_BYTES + this.bodyBytes) return opened;
      const all = this.join();
      const end = HEADER_BYTES + this.bodyBytes;
      opened.push(all.subarray(HEADER_BYTES, end));
      const rest = all.subarray(end);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
      this.bodyBytes = null;
    }
  }

  /** The body's length, once the frame's number and zero check are what they must be. */
  private checkHeader(head: Buffer): number {
    const length = head.readUInt32BE(0);
    const number = head.readBigUInt64BE(4);
    const zeros = head.readBigUInt64BE(12);
    if (number !== this.counter || zeros !== 0n) throw this.fail(`frame ${this.counter} failed its check`);
    if (length > MAX_BODY_BYTES) throw this.fail(`a frame of ${length} bytes`);
    this.counter++;
    return length;
  }

  private join(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0]!;
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
  /** Frames sent in this turn of the event loop go out in one write (see `send`). */
  private corked = false;

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

  /**
   * The frames sent before the current tick ends leave in one write: a burst (100 plugin calls
   * answered at once) was a system call per frame on the event loop, now one per tick. Order and
   * sealing are unchanged; only the writes are gathered.
   */
  send(message: Out): void {
    if (!this.connected) return;
    if (!this.corked) {
      this.corked = true;
      this.pipe.cork();
      process.nextTick(() => {
        this.corked = false;
        this.pipe.uncork();
      });
    }
    this.pipe.write(this.sealer.seal(JSON.stringify(encodeWire(message))));
  }
}
