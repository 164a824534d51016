/** Chat: the welcome on a first run, else the open conversation. */
import { useProviders } from "../stores/stores-context.js";
import { deferredComponent } from "../ui/deferred-component.js";
import { LoadFailedAlert } from "../ui/loadable-view.js";
import { LoadingLine } from "../ui/spinner.js";
import { Welcome } from "./welcome.js";

// The conversation (composer, transcript, menus, popovers) is its own chunk: the first paint shows
// "Loading…" here until the providers arrive, and the chunk is fetched meanwhile.
const ChatScreen = deferredComponent(() => import("./chat-screen.js").then((m) => m.ChatScreen));
export const preloadChatScreen = (): Promise<unknown> => ChatScreen.preload();

const loading = (
  <div className="centered-page">
    <LoadingLine>Loading…</LoadingLine>
  </div>
);

export function ChatView() {
  const providers = useProviders((s) => s.providers);
  const reload = useProviders((s) => s.load);

  if (providers.kind === "loading") return loading;
  if (providers.kind === "failed") {
    return (
      <div className="centered-page">
        <LoadFailedAlert onRetry={reload}>
          Couldn't reach Hermes Desktop's host: {providers.message}
        </LoadFailedAlert>
      </div>
    );
  }
  return providers.data.length === 0 ? <Welcome /> : <ChatScreen fallback={loading} />;
}
