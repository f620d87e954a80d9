import type { Version } from "@tessera/contracts";

/**
 * Which session a page belongs to. Everything under /international uses the international token
 * (`interToken`/`interInfo`); every other page uses the domestic one (`x-auth-token`/`userInfo`).
 */
export function versionOfPath(pathname: string): Version {
  return pathname === "/international" || pathname.startsWith("/international/") ? "international" : "domestic";
}

/** The login page of a version: 401s and logouts land here. */
export function loginPathOf(version: Version): string {
  return version === "international" ? "/international/INlogin" : "/login";
}

/** The system chooser of a version, where a successful login leads. */
export function chooserPathOf(version: Version): string {
  return version === "international" ? "/international/SelectUser" : "/SelectUser";
}

/** Prefix of the back-office areas of a version: `/sale/Home` or `/international/sale/Home`. */
export function areaPrefixOf(version: Version): string {
  return version === "international" ? "/international" : "";
}
