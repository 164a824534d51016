/** Chat: the welcome on a first run, else the open conversation. */
import { useProviders } from "../stores/stores-context.js";
import { Button } from "../ui/button.js";
import { InlineAlert } from "../ui/inline-alert.js";
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
        <InlineAlert
          action={
            <Button size="sm" onClick={() => void reload()}>
              Retry
            </Button>
          }
        >
          Couldn't reach Hermes Desktop's host: {providers.message}
        </InlineAlert>
      </div>
    );
  }
  return providers.data.length === 0 ? <Welcome /> : <ChatScreen />;
}
