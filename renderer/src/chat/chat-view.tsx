/** Chat: the welcome on a first run, else the open conversation. */
import { useProviders } from "../stores/stores-context.js";
import { LoadFailedAlert } from "../ui/loadable-view.js";
import { LoadingLine } from "../ui/spinner.js";
import { ChatScreen } from "./chat-screen.js";
import { Welcome } from "./welcome.js";

export function ChatView() {
  const providers = useProviders((s) => s.providers);
  const reload = useProviders((s) => s.load);

  if (providers.kind === "loading") {
    return (
      <div className="centered-page">
        <LoadingLine>Loading…</LoadingLine>
      </div>
    );
  }
  if (providers.kind === "failed") {
    return (
      <div className="centered-page">
        <LoadFailedAlert onRetry={reload}>
          Couldn't reach Hermes Desktop's host: {providers.message}
        </LoadFailedAlert>
      </div>
    );
  }
  return providers.data.length === 0 ? <Welcome /> : <ChatScreen />;
}
