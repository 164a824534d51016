/** The composer's own checks before an image is read (docs/contract.md §9.1); the host checks the bytes again. */
import { expect, it } from "vitest";
import { refusalFor } from "../../renderer/src/chat/composer/image-attachments";

it("takes PNG, JPEG, WebP and GIF up to 5 MB and says why anything else is refused", () => {
  for (const type of ["image/png", "image/jpeg", "image/webp", "image/gif"]) {
    expect(refusalFor({ name: "a", type, size: 1000 })).toBeNull();
  }
  expect(refusalFor({ name: "x.svg", type: "image/svg+xml", size: 10 })).toBe(
    '"x.svg" is not an image the app can send; use PNG, JPEG, WebP or GIF.',
  );
  expect(refusalFor({ name: "big.png", type: "image/png", size: 6 * 1024 * 1024 })).toBe(
    '"big.png" is 6.0 MB; images can be at most 5.0 MB.',
  );
});
