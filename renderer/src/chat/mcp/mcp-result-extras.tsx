/**
 * What an MCP tool result holds besides its text (docs/contract.md §13.3 step 4): its images,
 * shown, and its resource links, shown as links (web addresses open in a new tab; other URIs,
 * such as file://, are shown as text to copy).
 */
import { Link2 } from "lucide-react";
import type { McpResultMeta } from "./mcp-call-progress.js";

const shownImageTypes = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
const isWebAddress = (uri: string) => /^https?:\/\//i.test(uri);

export function McpResultExtras({ meta, tool }: { meta: McpResultMeta; tool: string }) {
  const images = (meta.images ?? []).filter((image) => shownImageTypes.has(image.mimeType));
  const links = meta.links ?? [];
  if (images.length === 0 && links.length === 0) return null;
  return (
    <div className="mcp-result-extras">
      {images.map((image, index) => (
        <img
          key={index}
          className="mcp-result-image"
          src={`data:${image.mimeType};base64,${image.data}`}
          alt={`Image ${index + 1} from ${tool}`}
        />
      ))}
      {links.length ? (
        <ul className="mcp-result-links" aria-label={`Links from ${tool}`}>
          {links.map((link) => (
            <li key={link.uri}>
              <Link2 size={12} aria-hidden="true" />
              {isWebAddress(link.uri) ? (
                <a href={link.uri} target="_blank" rel="noopener noreferrer">
                  {link.name}
                </a>
              ) : (
                <span>
                  {link.name} <code className="code-chip">{link.uri}</code>
                </span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
