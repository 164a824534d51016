/**
 * The composer's "Attach MCP resource" button and its dialog (docs/contract.md §13.4): each ready
 * server's resources (one click attaches one) and templates (a small form fills the URI).
 */
import { Database, Paperclip } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useShallow } from "zustand/react/shallow";
import type { McpResourceTemplateView, McpResourceView } from "../../../../electron/host/rpc/methods/mcp.js";
import { describeError } from "../../api/rpc-error.js";
import { selectMcpServers } from "../../stores/mcp/mcp-servers-store.js";
import { useMcpCatalog, useMcpServers } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { Dialog } from "../../ui/dialog.js";
import { Field } from "../../ui/field.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { LoadingLine } from "../../ui/spinner.js";
import { attachmentOf, type AttachedResource } from "./resource-attachments.js";
import { expandTemplate, templateVariables } from "./uri-template.js";
import "../../styles/mcp.css";

type Offer = {
  server: string;
  resources: McpResourceView[];
  templates: McpResourceTemplateView[];
  error?: string;
};

export function AttachResourceButton({
  disabled,
  onAttach,
}: {
  disabled: boolean;
  onAttach(resource: AttachedResource): void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="composer-attach"
        aria-label="Attach MCP resource"
        title="Attach MCP resource"
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        <Database size={16} aria-hidden="true" />
      </button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Attach a resource"
        description="What your ready MCP servers offer. Its content goes with your next message."
      >
        {open ? (
          <ResourcePicker
            onAttach={(resource) => {
              onAttach(resource);
              setOpen(false);
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function ResourcePicker({ onAttach }: { onAttach(resource: AttachedResource): void }) {
  const serversLoaded = useMcpServers((s) => s.servers.kind !== "loading");
  const loadServers = useMcpServers((s) => s.load);
  const ready = useMcpServers(
    useShallow((s) =>
      selectMcpServers(s)
        .filter((x) => x.status === "ready")
        .map((x) => x.id),
    ),
  );
  const listResources = useMcpCatalog((s) => s.resources);
  const readResource = useMcpCatalog((s) => s.readResource);
  const [offers, setOffers] = useState<Offer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  const readyKey = ready.join(",");

  useEffect(() => {
    if (!serversLoaded) void loadServers();
  }, [serversLoaded, loadServers]);

  useEffect(() => {
    if (!serversLoaded) return;
    let live = true;
    void Promise.all(
      readyKey
        .split(",")
        .filter(Boolean)
        .map(async (server): Promise<Offer> => {
          try {
            return { server, ...(await listResources(server)) };
          } catch (err) {
            return { server, resources: [], templates: [], error: describeError(err) };
          }
        }),
    ).then((list) => {
      if (live) setOffers(list.filter((o) => o.resources.length || o.templates.length || o.error));
    });
    return () => {
      live = false;
    };
  }, [serversLoaded, readyKey, listResources]);

  const attach = async (server: string, uri: string, name: string) => {
    setReading(uri);
    setError(null);
    try {
      const attachment = attachmentOf(server, uri, name, await readResource(server, uri));
      if (typeof attachment === "string") setError(attachment);
      else onAttach(attachment);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setReading(null);
    }
  };

  if (offers === null)
    return (
      <div className="dialog-body">
        <LoadingLine>Asking your MCP servers…</LoadingLine>
      </div>
    );
  return (
    <div className="dialog-body mcp-resource-picker">
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      {offers.length === 0 ? (
        <p className="dialog-hint">
          No ready MCP server offers resources. Add or start one in Settings → MCP.
        </p>
      ) : null}
      {offers.map((offer) => (
        <section
          key={offer.server}
          aria-labelledby={`mcp-res-${offer.server}`}
          className="mcp-resource-server"
        >
          <h3 id={`mcp-res-${offer.server}`} className="mcp-subheading">
            {offer.server}
          </h3>
          {offer.error ? <InlineAlert>{offer.error}</InlineAlert> : null}
          {offer.resources.length ? (
            <ul className="mcp-resource-list" aria-label={`Resources of ${offer.server}`}>
              {offer.resources.map((resource) => (
                <li key={resource.uri}>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Paperclip size={14} aria-hidden="true" />}
                    disabled={reading !== null}
                    busy={reading === resource.uri}
                    aria-label={`Attach ${resource.title ?? resource.name}`}
                    onClick={() => void attach(offer.server, resource.uri, resource.title ?? resource.name)}
                  >
                    {resource.title ?? resource.name}
                  </Button>
                  <span className="mcp-resource-uri">{resource.description ?? resource.uri}</span>
                </li>
              ))}
            </ul>
          ) : null}
          {offer.templates.map((template) => (
            <TemplateForm
              key={template.uriTemplate}
              template={template}
              busy={reading !== null}
              onSubmit={(uri) => void attach(offer.server, uri, template.title ?? template.name)}
            />
          ))}
        </section>
      ))}
    </div>
  );
}

function TemplateForm({
  template,
  busy,
  onSubmit,
}: {
  template: McpResourceTemplateView;
  busy: boolean;
  onSubmit(uri: string): void;
}) {
  const [variables] = useState(() => templateVariables(template.uriTemplate));
  const [values, setValues] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(expandTemplate(template.uriTemplate, values));
  };
  const title = template.title ?? template.name;
  return (
    <form className="mcp-template-form" onSubmit={submit} aria-label={`Template ${title}`}>
      <p className="mcp-card-text">
        {title} <code className="code-chip">{template.uriTemplate}</code>
      </p>
      {variables.map((name) => (
        <Field key={name} label={name}>
          {(control) => (
            <input
              {...control}
              className="input input-mono"
              value={values[name] ?? ""}
              autoComplete="off"
              onChange={(e) => setValues((current) => ({ ...current, [name]: e.target.value }))}
            />
          )}
        </Field>
      ))}
      <Button type="submit" size="sm" disabled={busy} aria-label={`Attach ${title}`}>
        Attach
      </Button>
    </form>
  );
}
