import { createContext, useContext } from "react";

export type AuthDialogKind = "login" | "register" | "reset";

export interface AuthDialogs {
  /** Opens one of the account dialogs, optionally with the email filled in. */
  open: (kind: AuthDialogKind, options?: { email?: string }) => void;
  close: () => void;
  /** Opens the platform service agreement on top of whatever is open. */
  openAgreement: () => void;
  current: AuthDialogKind | null;
}

export const AuthDialogsContext = createContext<AuthDialogs>({
  open: () => undefined,
  close: () => undefined,
  openAgreement: () => undefined,
  current: null,
});

export function useAuthDialogs(): AuthDialogs {
  return useContext(AuthDialogsContext);
}
