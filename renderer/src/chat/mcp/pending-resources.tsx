/** The MCP resources waiting to go with the next message, each with a Remove button. */
import { Database, X } from "lucide-react";
import type { AttachedResource } from "./resource-attachments.js";

export function PendingResources({
  resources,
  onRemove,
}: {
  resources: readonly AttachedResource[];
  onRemove(index: number): void;
}) {
  if (resources.length === 0) return null;
  return (
    <ul className="mcp-pending-resources" aria-label="Attached resources">
      {resources.map((resource, index) => (
        <li key={`${resource.uri}-${index}`} className="mcp-pending-resource" title={resource.uri}>
          <Database size={12} aria-hidden="true" />
          <span>
            {resource.server}: {resource.name}
          </span>
          <button type="button" aria-label={`Remove ${resource.name}`} onClick={() => onRemove(index)}>
            <X size={12} aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}
