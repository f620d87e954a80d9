import { useCallback, useMemo, useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { versionOfPath } from "../../../api/area";
import { AgreementDialog } from "./AgreementDialog";
import { AuthDialogsContext, type AuthDialogKind, type AuthDialogs } from "./context";
import { LoginDialog } from "./LoginDialog";
import { RegisterDialog } from "./RegisterDialog";
import { ResetPasswordDialog } from "./ResetPasswordDialog";

/**
 * Holds the login, register, reset-password and agreement dialogs so the header can open them on any
 * page. The version (domestic or international) follows the page the user is on.
 */
export function AuthDialogsProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const version = versionOfPath(pathname);
  const [state, setState] = useState<{ kind: AuthDialogKind | null; email?: string; seq: number }>({
    kind: null,
    seq: 0,
  });
  const [agreementOpen, setAgreementOpen] = useState(false);

  const open = useCallback<AuthDialogs["open"]>(
    (kind, options) => setState((s) => ({ kind, email: options?.email, seq: s.seq + 1 })),
    [],
  );
  const close = useCallback(() => setState((s) => ({ kind: null, seq: s.seq })), []);
  const openAgreement = useCallback(() => setAgreementOpen(true), []);
  const api = useMemo<AuthDialogs>(
    () => ({ open, close, openAgreement, current: state.kind }),
    [open, close, openAgreement, state.kind],
  );

  // `key` remounts a dialog each time it is opened, so it starts from a clean form.
  return (
    <AuthDialogsContext.Provider value={api}>
      {children}
      {state.kind === "login" && (
        <LoginDialog key={`login-${state.seq}`} version={version} initialEmail={state.email} />
      )}
      {state.kind === "register" && <RegisterDialog key={`register-${state.seq}`} version={version} />}
      {state.kind === "reset" && <ResetPasswordDialog key={`reset-${state.seq}`} initialEmail={state.email} />}
      <AgreementDialog open={agreementOpen} onClose={() => setAgreementOpen(false)} />
    </AuthDialogsContext.Provider>
  );
}
