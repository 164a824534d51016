/**
 * The one check of an endpoint's base URL, for a provider's form (`providers.save`) and a pin's
 * `base_url` (`model.set`): a ModelInputError on `base_url` with a sentence that says what to fix.
 */
import { ModelInputError } from "./model-errors.js";

/** `naming`: where the URL is not a form field of its own (model.set), the messages name the key. */
export function checkBaseUrl(raw: string, naming: "field" | "key" = "field"): string {
  const fail = (message: string) =>
    new ModelInputError(naming === "key" ? `base_url: ${message}` : message, "base_url");
  const text = raw.trim();
  if (!text) throw fail("Enter the endpoint's base URL, e.g. https://host/v1.");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail(
      `"${text}" is not a URL. Use a full URL that starts with http:// or https://, e.g. https://host/v1.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw fail("Use a full URL that starts with http:// or https://.");
  }
  if (url.username || url.password) {
    throw fail("The URL must not hold credentials; put the key in the API key field.");
  }
  return url.toString().replace(/\/+$/, "");
}
