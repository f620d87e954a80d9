import { cloneElement, startTransition } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { bagPageOf } from "./features/onecard/client/light/paths";
import { lightScreenFor } from "./login/lightScreen";

/**
 * A small bootstrap (issue 25 item 8): the login pages, where most visits start, first paint a light
 * landing (plain React and a small style sheet, with only the core texts of the reader's language), then
 * load the whole app (router, providers, antd, the contracts), which takes over the same root and opens
 * the login dialog as before. The card bag's pages (issue 40 item 9) are a light entry of their own
 * (features/onecard/client/light) that never loads the app. Every other page loads the whole app at once.
 */
const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root");
const root = createRoot(container);

if (bagPageOf(window.location.pathname)) {
  await import("./features/onecard/client/light/start").then((m) => m.startBag(root));
} else {
  await startApp();
}

async function startApp(): Promise<void> {
  const light = lightScreenFor(window.location.pathname, window.localStorage);
  // Without its texts (a failed fetch) the page goes straight to the whole app, as every other page does.
  const screen = light ? await light.catch(() => null) : null;
  if (screen) {
    flushSync(() => root.render(screen));
    // The app's download starts once the light screen is on screen, not beside it: fetched together, the
    // app's half megabyte would compete with the first paint for the network and the main thread.
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  const app = await import("./app/start")
    .then((m) => m.startApp())
    .catch((error: unknown) => {
      // A dropped connection or a redeploy (spec 01 §8): the light screen says so and offers a reload.
      if (screen) root.render(cloneElement(screen, { failed: true }));
      throw error;
    });
  // Rendered into the same root, the app replaces the light screen in one commit. Over the light screen the
  // render is a transition: React works in short slices, so a click or key on the light screen is not held
  // up behind the whole antd tree (and Lighthouse counts no long task for it).
  if (light) startTransition(() => root.render(app));
  else root.render(app);
}
