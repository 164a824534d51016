/**
 * "Scan for local servers" (docs/contract.md §6.1.1): the model servers running on this machine,
 * each with its models, one click to add without a key. A port that answers but is not a model
 * server is shown as such, never offered. Used on Settings → Providers and on the first-run screen.
 */
import { Cpu, Plus, Radar } from "lucide-react";
import { useEffect } from "react";
import type { DiscoveredModel } from "../../../../electron/host/rpc/methods/provider-discovery.js";
import { useSetup } from "../../stores/stores-context.js";
import type { DiscoveredServer } from "../../stores/settings/setup-store.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";

export function LocalServersPanel({
  scanOnMount = false,
  headingLevel = 2,
}: {
  /** First run: scan as soon as the screen is up (after the window is interactive, never before). */
  scanOnMount?: boolean;
  headingLevel?: 2 | 3;
}) {
  const scan = useSetup((s) => s.scan);
  const scanLocalServers = useSetup((s) => s.scanLocalServers);
  const scanning = scan.kind === "scanning";
  const Heading = `h${headingLevel}` as const;

  useEffect(() => {
    if (scanOnMount) void scanLocalServers({ quiet: true });
  }, [scanOnMount, scanLocalServers]);

  return (
    <section className="card card-padded local-servers" aria-labelledby="local-servers-heading">
      <div className="local-servers-header">
        <div>
          <Heading id="local-servers-heading" className="local-servers-title">
            Local servers
          </Heading>
          <p className="muted local-servers-lead">
            Ollama, LM Studio, llama.cpp, vLLM or Jan running on this computer. No key needed.
          </p>
        </div>
        <Button
          size="sm"
          icon={<Radar size={14} aria-hidden="true" />}
          onClick={() => void scanLocalServers()}
          disabled={scanning}
          busy={scanning}
        >
          {scanning ? "Scanning…" : "Scan for local servers"}
        </Button>
      </div>
      {scan.kind === "failed" ? <InlineAlert>{`Couldn't scan: ${scan.message}`}</InlineAlert> : null}
      {scan.kind === "done" && scan.servers.length === 0 ? (
        <p className="muted" role="status">
          No local model server answered. Start one, then scan again.
        </p>
      ) : null}
      {scan.kind !== "idle" && scan.servers.length > 0 ? (
        <ul className="local-server-list" aria-label="Local servers found">
          {scan.servers.map((server) => (
            <LocalServerRow key={`${server.kind} ${server.base_url}`} server={server} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function LocalServerRow({ server }: { server: DiscoveredServer }) {
  const add = useSetup((s) => s.adds[server.providerId]);
  const addLocalServer = useSetup((s) => s.addLocalServer);
  const adding = add?.kind === "adding";
  const usable = server.status === "found";
  return (
    <li
      className="local-server"
      data-local-server={server.kind}
      aria-label={`${server.name} at ${server.base_url}`}
    >
      <div className="local-server-main">
        <Cpu size={16} aria-hidden="true" className="local-server-icon" />
        <div className="local-server-text">
          <span className="local-server-name">{server.name}</span>
          <span className="provider-url">{server.base_url}</span>
        </div>
        {!usable ? (
          <span className="badge badge-warning">Not a model server</span>
        ) : server.added ? (
          <span className="badge badge-accent">Added</span>
        ) : (
          <Button
            size="sm"
            variant="primary"
            icon={<Plus size={14} aria-hidden="true" />}
            onClick={() => void addLocalServer(server)}
            disabled={adding}
            busy={adding}
            aria-label={`Add ${server.name}`}
          >
            {adding ? "Adding…" : "Add"}
          </Button>
        )}
      </div>
      {!usable ? (
        <p className="muted local-server-note">
          Something answers on this port, but not with a model server&apos;s API, so it is not offered.
        </p>
      ) : server.models.length === 0 ? (
        <p className="muted local-server-note">It runs, but has no models yet.</p>
      ) : (
        <ul className="model-chips" aria-label={`Models of ${server.name}`}>
          {server.models.map((model) => (
            <li key={model.id} className="model-chip">
              {model.id}
              {modelFacts(model)}
            </li>
          ))}
        </ul>
      )}
      {add?.kind === "failed" ? (
        <InlineAlert>{`Couldn't add ${server.name}: ${add.message}`}</InlineAlert>
      ) : null}
    </li>
  );
}

function modelFacts(model: DiscoveredModel): string {
  const facts = [
    model.context_window ? `${Math.round(model.context_window / 1024)}k context` : null,
    model.vision ? "vision" : null,
  ].filter(Boolean);
  return facts.length ? ` · ${facts.join(" · ")}` : "";
}
