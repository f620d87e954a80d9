import type { ReactElement } from "react";
import type { Version } from "@tessera/contracts";
import { loginPathOf, versionOfPath } from "../api/area";
import { SESSION_KEYS, type StorageLike } from "../api/tokens";
import { loadLightTexts } from "./texts";
import { LightLanding, type LightLandingProps } from "./LightLanding";

/** The login pages that open with the light landing, and their version. */
const LIGHT_PATHS: Record<string, Version> = {
  [loginPathOf("domestic")]: "domestic",
  "/login1": "domestic",
  [loginPathOf("international")]: "international",
};

/**
 * The light first screen for a login page visited without a session, or null: with a session the page
 * shows "Enter the console" instead (features/accounts/Landing.tsx), which the whole app renders.
 */
export function lightScreenFor(
  pathname: string,
  storage: StorageLike,
): Promise<ReactElement<LightLandingProps>> | null {
  const version = LIGHT_PATHS[pathname];
  if (!version || versionOfPath(pathname) !== version) return null;
  if (storage.getItem(SESSION_KEYS[version].token)) return null;
  return loadLightTexts(version, storage).then((texts) => <LightLanding version={version} initialTexts={texts} />);
}
