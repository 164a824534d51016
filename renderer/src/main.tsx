/** Entry: one client for the transport at hand, the stores on top of it, and the app. */
import { StrictMode } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { createHermesClient } from "./api/create-client.js";
import { connectStoresToHost, createAppStores } from "./stores/app-stores.js";
import { lastChatIn } from "./stores/chat/last-chat.js";
import { followAppRoute } from "./stores/route-sync.js";
import { StoresProvider } from "./stores/stores-context.js";
import { preloadMarkdown } from "./chat/markdown/lazy-markdown.js";
import { preloadChatScreen } from "./chat/chat-view.js";
import { App, preloadScreens } from "./app/app.js";
import { firstScreenShown } from "./app/first-screen.js";
import "./styles/tokens.css";
import "./styles/base.css";
import "./styles/controls.css";
import "./styles/surfaces.css";
import "./styles/combobox.css";
import "./styles/shell.css";
import "./styles/settings.css";
import "./styles/plugins.css";
import "./styles/chat.css";
import "./styles/session-list.css";
import "./styles/setup.css";
import "./styles/transcript.css";
import "./styles/composer.css";
import "./styles/code-highlight.css";

const root = document.getElementById("root");
if (!root) throw new Error('index.html lacks <div id="root">; the renderer has nowhere to mount.');

const client = createHermesClient();
// A reload opens the chat that was open (remembered in this window's storage), and the screen in
// the address's fragment (the desktop app reopens its window's last one: electron/window-state.ts).
const lastChat = lastChatIn(window.localStorage);
const stores = createAppStores(client, { chat: { lastChat } });
followAppRoute(window, { navigation: stores.navigation, sessions: stores.chat.sessions }, lastChat);
connectStoresToHost(client, stores);

// The shell renders in this very task, not in a scheduler task after it: the first paint (and the
// page's load event) already show the app, not an empty page.
const reactRoot = createRoot(root);
flushSync(() =>
  reactRoot.render(
    <StrictMode>
      <StoresProvider stores={stores}>
        <App />
      </StoresProvider>
    </StrictMode>,
  ),
);

// What the first paint left out is fetched in idle moments: the conversation screen at once (it
// shows as soon as the providers arrive), the rest only once the first screen has its data, has
// rendered it and painted (or 4 s on): parsing those chunks earlier competes with the very start-up
// the person is waiting for (the providers' answer would set them off before the screen it
// unlocks — the chat with its list of chats, or the welcome — was even rendered).
const whenIdle = (work: () => void) =>
  typeof requestIdleCallback === "function"
    ? requestIdleCallback(work, { timeout: 2000 })
    : setTimeout(work, 200);
whenIdle(() => void preloadChatScreen());
// Once the first screen is on show, the host also starts what waits for an interactive window: MCP
// servers (docs/contract.md §13.2), whose processes would otherwise compete with this start.
void firstScreenShown(stores, 4000).then(() =>
  whenIdle(() => {
    void preloadMarkdown();
    void preloadScreens();
    void client.call("host.interactive", {}).catch(() => undefined);
  }),
);
