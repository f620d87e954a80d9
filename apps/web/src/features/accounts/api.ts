import { useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  LoginReply,
  LoginReq,
  RegisterReply,
  RegisterReq,
  ResetPasswordReq,
  SendCodeReply,
  SendEmailReq,
  SendSmsReq,
  UserEmailReq,
  UserInfo,
  UserPhoneReq,
  Version,
} from "@tessera/contracts";
import { useSession } from "../../api/common";
import type { ApiResult } from "../../api/envelope";
import { http, tokens } from "../../api/http";
import { queryKeys } from "../../api/queryKeys";

/**
 * Account calls of spec 01 §7 (`/api/card-user/...`). Mutations resolve to the call's result (never
 * throw), so forms can put a server error on the field it names (`data.field`). The account has no
 * query of its own: what it changes is the session's user info, an app-wide key (api/queryKeys.ts) read
 * through api/common.ts.
 */
const base = "/api/card-user";

/** Logs in; on success stores the token and the user info of that version. */
export function useLogin(version: Version) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (req: LoginReq): Promise<ApiResult<LoginReply> | undefined> => {
      const result = await http.post<LoginReply>(`${base}/login`, req, { toast: false, auth: false });
      if (!result?.ok) return result;
      tokens.setToken(version, result.data.token);
      const info = await http.get<UserInfo>(`${base}/userInfo`);
      if (info?.ok) {
        tokens.setInfo(version, info.data);
        queryClient.setQueryData(queryKeys.userInfo(version, result.data.token), info.data);
      }
      return result;
    },
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (req: RegisterReq) => http.post<RegisterReply>(`${base}/register`, req, { toast: false, auth: false }),
  });
}

export function useSendEmailCode() {
  return useMutation({
    mutationFn: (req: SendEmailReq) => http.post<SendCodeReply>(`${base}/sendEmail`, req, { toast: false }),
  });
}

export function useSendSmsCode() {
  return useMutation({
    mutationFn: (req: SendSmsReq) => http.post<SendCodeReply>(`${base}/sendSms`, req, { toast: false }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (req: ResetPasswordReq) => http.put<null>(`${base}/resetPassword`, req, { toast: false, auth: false }),
  });
}

export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: UserEmailReq) => http.put<null>(`${base}/userEmail`, req, { toast: false }),
    onSuccess: (result) => {
      if (result?.ok) void queryClient.invalidateQueries({ queryKey: queryKeys.userInfoAll });
    },
  });
}

export function useBindPhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: UserPhoneReq) => http.put<null>(`${base}/userPhone`, req, { toast: false }),
    onSuccess: (result) => {
      if (result?.ok) void queryClient.invalidateQueries({ queryKey: queryKeys.userInfoAll });
    },
  });
}

/** Revokes the token on the server, then forgets the session locally whatever the reply. */
export function useLogout() {
  const queryClient = useQueryClient();
  const { version } = useSession();
  return useMutation({
    mutationFn: async () => {
      if (tokens.getToken(version)) await http.put<null>(`${base}/logout`, undefined, { toast: false });
      tokens.clear(version);
      queryClient.removeQueries({ queryKey: queryKeys.userInfoAll });
    },
  });
}
