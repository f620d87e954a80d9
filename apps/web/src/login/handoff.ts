import type { AuthDialogKind } from "../features/accounts/auth/context";

/**
 * A dialog the reader asked for on the light screen (login or register button) before the whole app
 * had arrived: the app's landing opens it instead of the login dialog it opens on arrival.
 */
let requested: AuthDialogKind | null = null;

export function requestDialog(kind: AuthDialogKind): void {
  requested = kind;
}

/** The requested dialog, once: a later visit to the landing opens the login dialog again. */
export function takeRequestedDialog(): AuthDialogKind | null {
  const kind = requested;
  requested = null;
  return kind;
}
