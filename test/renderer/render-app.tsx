/** Renders the whole app on a client, the way main.tsx does, for component tests. */
import { render } from "@testing-library/react";
import type { HermesClient } from "../../renderer/src/api/client";
import { connectStoresToHost, createAppStores, type AppStores } from "../../renderer/src/stores/app-stores";
import { StoresProvider } from "../../renderer/src/stores/stores-context";
import { preloadMarkdown } from "../../renderer/src/chat/markdown/lazy-markdown";
import { App, preloadScreens } from "../../renderer/src/app/app";

// The app loads these chunks after its first paint; the tests render with them in place.
await Promise.all([preloadScreens(), preloadMarkdown()]);

export function renderApp(
  client: HermesClient,
  options: Parameters<typeof createAppStores>[1] = {},
): { stores: AppStores; disconnect(): void } {
  const stores = createAppStores(client, options);
  const disconnect = connectStoresToHost(client, stores);
  render(
    <StoresProvider stores={stores}>
      <App />
    </StoresProvider>,
  );
  return { stores, disconnect };
}
