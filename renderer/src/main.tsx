/** Entry: one client for the transport at hand, the stores on top of it, and the app. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createHermesClient } from "./api/create-client.js";
import { connectStoresToHost, createAppStores } from "./stores/app-stores.js";
import { StoresProvider } from "./stores/stores-context.js";
import { preloadMarkdown } from "./chat/lazy-markdown.js";
import { App, preloadScreens } from "./ui/app.js";
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
import "./styles/transcript.css";
import "./styles/composer.css";
import "./styles/code-highlight.css";

const root = document.getElementById("root");
if (!root) throw new Error('index.html lacks <div id="root">; the renderer has nowhere to mount.');

const client = createHermesClient();
const stores = createAppStores(client);
connectStoresToHost(client, stores);

createRoot(root).render(
  <StrictMode>
    <StoresProvider stores={stores}>
      <App />
    </StoresProvider>
  </StrictMode>,
);

// What the first paint left out, fetched once the page is idle so it is there when needed.
const whenIdle = (work: () => void) =>
  typeof requestIdleCallback === "function"
    ? requestIdleCallback(work, { timeout: 2000 })
    : setTimeout(work, 200);
whenIdle(() => {
  void preloadMarkdown();
  void preloadScreens();
});
