import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AgreementTemplateReply,
  ApiInfoReply,
  ApiIpReq,
  ApiSecretReply,
  ApiViewReq,
  BizLicenseTextReply,
  CommitLetter,
  DocumentKind,
  DocumentReply,
  IdTextReply,
  Industry,
  MyMenusReply,
  Page,
  ProfileReply,
  ProfileUpdateReq,
  RealNameInfoReply,
  RealNameSubmitReq,
  ServiceBinding,
  ServiceKind,
  SignAgreementReq,
  SignedAgreement,
  SubAccount,
  SubAddReq,
  SubUpdateReq,
} from "@tessera/contracts";
import type { Query } from "../client";
import { unwrap } from "../errors";
import { http } from "../http";
import { queryKeys } from "../queryKeys";
import { useSession } from "./account";

/**
 * Onboarding calls: company profile, real-name verification, API security, sub-accounts and the pages
 * a user may open. Mutations resolve to the call's result so forms can show errors on their fields.
 */
const user = "/api/card-user";
const brander = "/api/card-brander";

export const onboardingKeys = {
  profile: ["onboarding", "profile"] as const,
  realName: ["onboarding", "realName"] as const,
  api: ["onboarding", "api"] as const,
  subs: (q: Query) => ["onboarding", "subs", q] as const,
  subsAll: ["onboarding", "subs"] as const,
  menus: (token: string | null) => ["onboarding", "menus", token] as const,
};

export function useProfile() {
  return useQuery({
    queryKey: onboardingKeys.profile,
    queryFn: async () => unwrap(await http.get<ProfileReply>(`${brander}/brander/profile`)),
  });
}

export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: ProfileUpdateReq) =>
      http.post<ProfileReply>(`${brander}/brander/profile/update`, req, { toast: false }),
    onSuccess: (r) => {
      if (r?.ok) {
        qc.setQueryData(onboardingKeys.profile, r.data);
        void qc.invalidateQueries({ queryKey: queryKeys.userInfoAll });
      }
    },
  });
}

export function useSetIndustry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ merchantId, industry }: { merchantId: string; industry: Industry }) =>
      http.put<ProfileReply>(`${user}/realNameAuths/${merchantId}/industries`, { industry }),
    onSuccess: (r) => r?.ok && qc.setQueryData(onboardingKeys.profile, r.data),
  });
}

export function useUploadLogo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append("file", file);
      return http.post<ProfileReply>(`${brander}/brander/profile/logo`, body);
    },
    onSuccess: (r) => r?.ok && qc.setQueryData(onboardingKeys.profile, r.data),
  });
}

/** An image behind the session token, as an object URL (an <img> cannot send the token itself). */
export function useAuthImage(path: string | null | undefined) {
  const { token } = useSession();
  return useQuery({
    queryKey: ["authImage", path, token],
    enabled: Boolean(path),
    staleTime: Infinity,
    queryFn: async () => URL.createObjectURL(unwrap(await http.download(path ?? "", { overlay: false })).blob),
  });
}

export function useRealNameInfo() {
  return useQuery({
    queryKey: onboardingKeys.realName,
    queryFn: async () => unwrap(await http.get<RealNameInfoReply>(`${brander}/realNameInfo`)),
  });
}

export function useUploadDocument() {
  return useMutation({
    mutationFn: ({ kind, file }: { kind: DocumentKind; file: File }) => {
      const body = new FormData();
      body.append("file", file);
      return http.post<DocumentReply>(`${user}/realNameAuths/images`, body, { query: { kind } });
    },
  });
}

export async function readLicenseText(documentId: string) {
  return http.get<BizLicenseTextReply>(`${user}/realNameAuths/bizLicenseImageText`, { query: { documentId } });
}

export async function readIdText(documentId: string) {
  return http.get<IdTextReply>(`${user}/realNameAuths/idImageText`, { query: { documentId } });
}

export function useSubmitRealName() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RealNameSubmitReq) =>
      http.post<RealNameInfoReply>(`${user}/realNameAuths`, req, { toast: false }),
    onSuccess: (r) => r?.ok && qc.setQueryData(onboardingKeys.realName, r.data),
  });
}

export function useApiInfo() {
  return useQuery({
    queryKey: onboardingKeys.api,
    queryFn: async () => unwrap(await http.get<ApiInfoReply>(`${brander}/brander/api`)),
  });
}

function useApiMutation<Req, Res>(path: string, toast: boolean, keepInfo: boolean) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: Req) => http.post<Res>(`${brander}${path}`, req, { toast }),
    onSuccess: (r) => {
      if (r?.ok && keepInfo) qc.setQueryData(onboardingKeys.api, r.data);
      else if (r?.ok) void qc.invalidateQueries({ queryKey: onboardingKeys.api });
    },
  });
}

export const useApplyApi = () => useApiMutation<{ purpose: string }, ApiInfoReply>("/api/apply", false, true);
export const useSetApiIp = () => useApiMutation<ApiIpReq, ApiInfoReply>("/api/ip", false, true);
export const useViewSecret = () => useApiMutation<ApiViewReq, ApiSecretReply>("/api/view", false, false);
export const useResetSecret = () => useApiMutation<{ password: string }, ApiSecretReply>("/api/reset", false, false);

export function subAccountsQuery(query: Query) {
  return {
    queryKey: onboardingKeys.subs(query),
    queryFn: async () => unwrap(await http.get<Page<SubAccount>>(`${brander}/brander/passport/sub/search`, { query })),
  };
}

export function useAddSubAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: SubAddReq) => http.post<SubAccount>(`${brander}/passport/sub/add`, req, { toast: false }),
    onSuccess: (r) => r?.ok && void qc.invalidateQueries({ queryKey: onboardingKeys.subsAll }),
  });
}

export function useUpdateSubAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: SubUpdateReq) => http.put<SubAccount>(`${brander}/passport/sub/update`, req, { toast: false }),
    onSuccess: (r) => r?.ok && void qc.invalidateQueries({ queryKey: onboardingKeys.subsAll }),
  });
}

/** The pages the signed-in user may open: null for a main account or an operator (all of them). */
export function useMyMenus() {
  const { token } = useSession();
  return useQuery({
    queryKey: onboardingKeys.menus(token),
    enabled: Boolean(token),
    staleTime: 60_000,
    queryFn: async () => unwrap(await http.get<MyMenusReply>(`${user}/myMenus`)).menus,
  });
}

export const agreementKeys = { templates: ["onboarding", "agreements"] as const };

export function useAgreementTemplates() {
  return useQuery({
    queryKey: agreementKeys.templates,
    queryFn: async () => unwrap(await http.get<AgreementTemplateReply[]>(`${user}/agreements/templates`)),
  });
}

export function useSignAgreement() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: SignAgreementReq) => http.post<SignedAgreement>(`${user}/agreements/sign`, req, { toast: false }),
    onSuccess: (r) => r?.ok && void qc.invalidateQueries({ queryKey: agreementKeys.templates }),
  });
}

export async function fetchSignedAgreement(id: string) {
  return http.get<SignedAgreement>(`${user}/agreements/${id}`);
}

/** A merchant's binding of one kind: as a brand (business/ServiceBind) or as a vendor (sale/ServiceBind). */
export const bindingKeys = { current: (kind: ServiceKind) => ["onboarding", "serviceBinding", kind] as const };

export function useServiceBinding(kind: ServiceKind) {
  return useQuery({
    queryKey: bindingKeys.current(kind),
    queryFn: async () =>
      unwrap(await http.get<ServiceBinding | null>("/api/card-servicer/brander/service", { query: { kind } })),
  });
}

export function useBindProvider(kind: ServiceKind) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (providerId: string) =>
      http.post<ServiceBinding>("/api/card-servicer/brander/service", { providerId, kind }, { toast: false }),
    onSuccess: (r) => r?.ok && qc.setQueryData(bindingKeys.current(kind), r.data),
  });
}

export function useUnbindProvider(kind: ServiceKind) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.del<null>(`/api/card-servicer/brander/${id}`),
    onSuccess: (r) => r?.ok && qc.setQueryData(bindingKeys.current(kind), null),
  });
}

export const letterKeys = { list: ["onboarding", "commitLetters"] as const };

export function useCommitLetters() {
  return useQuery({
    queryKey: letterKeys.list,
    queryFn: async () => unwrap(await http.get<CommitLetter[]>(`${user}/commitLetters`)),
  });
}

export function useUploadCommitLetter() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append("file", file);
      return http.post<CommitLetter[]>(`${user}/commitLetters`, body);
    },
    onSuccess: (r) => r?.ok && qc.setQueryData(letterKeys.list, r.data),
  });
}
