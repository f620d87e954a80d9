import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AgreementTemplateReply,
  ApiInfoReply,
  ApiIpReq,
  ApiSecretReply,
  ApiViewReq,
  BizLicenseTextReply,
  BrandTokenReply,
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
import type { Query } from "../../api/client";
import { useSession } from "../../api/common";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { queryKeys } from "../../api/queryKeys";

/**
 * Onboarding calls: company profile, real-name verification, API security, sub-accounts, the pages a
 * user may open, agreements, service binding (the merchant's side and the provider's served merchants)
 * and commitment letters. Mutations resolve to the call's result so forms can show errors on their fields.
 */
const user = "/api/card-user";
const brander = "/api/card-brander";
const servicer = "/api/card-servicer";

export const onboardingKeys = {
  profile: ["onboarding", "profile"] as const,
  realName: ["onboarding", "realName"] as const,
  api: ["onboarding", "api"] as const,
  subs: (q: Query) => ["onboarding", "subs", q] as const,
  subsAll: ["onboarding", "subs"] as const,
  menus: (token: string | null) => ["onboarding", "menus", token] as const,
  agreements: ["onboarding", "agreements"] as const,
  serviceBinding: (kind: ServiceKind) => ["onboarding", "serviceBinding", kind] as const,
  commitLetters: ["onboarding", "commitLetters"] as const,
  /** An image behind the session token (useAuthImage). */
  authImage: (path: string | null | undefined, token: string | null) => ["authImage", path, token] as const,
  /** The provider's served merchants. */
  servedAll: ["providers", "served"] as const,
  served: (q: ServedQuery) => ["providers", "served", q] as const,
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
    queryKey: onboardingKeys.authImage(path, token),
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

export function useAgreementTemplates() {
  return useQuery({
    queryKey: onboardingKeys.agreements,
    queryFn: async () => unwrap(await http.get<AgreementTemplateReply[]>(`${user}/agreements/templates`)),
  });
}

export function useSignAgreement() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: SignAgreementReq) => http.post<SignedAgreement>(`${user}/agreements/sign`, req, { toast: false }),
    onSuccess: (r) => r?.ok && void qc.invalidateQueries({ queryKey: onboardingKeys.agreements }),
  });
}

export async function fetchSignedAgreement(id: string) {
  return http.get<SignedAgreement>(`${user}/agreements/${id}`);
}

/** A merchant's binding of one kind: as a brand (business/ServiceBind) or as a vendor (sale/ServiceBind). */
export function useServiceBinding(kind: ServiceKind) {
  return useQuery({
    queryKey: onboardingKeys.serviceBinding(kind),
    queryFn: async () =>
      unwrap(await http.get<ServiceBinding | null>(`${servicer}/brander/service`, { query: { kind } })),
  });
}

export function useBindProvider(kind: ServiceKind) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (providerId: string) =>
      http.post<ServiceBinding>(`${servicer}/brander/service`, { providerId, kind }, { toast: false }),
    onSuccess: (r) => r?.ok && qc.setQueryData(onboardingKeys.serviceBinding(kind), r.data),
  });
}

export function useUnbindProvider(kind: ServiceKind) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.del<null>(`${servicer}/brander/${id}`),
    onSuccess: (r) => r?.ok && qc.setQueryData(onboardingKeys.serviceBinding(kind), null),
  });
}

export function useCommitLetters() {
  return useQuery({
    queryKey: onboardingKeys.commitLetters,
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
    onSuccess: (r) => r?.ok && qc.setQueryData(onboardingKeys.commitLetters, r.data),
  });
}

/**
 * The provider's side of service binding (spec 01 §7 Servicer calls): `POST card-servicer/brander`
 * lists the merchants bound to this provider (the server scopes it to the caller), `DELETE
 * card-servicer/brander/{id}` ends a binding.
 */
/** A page of served merchants; `kind` keeps one list (brands or vendors). */
export interface ServedQuery {
  page: number;
  pageSize: number;
  keyword?: string;
  kind?: ServiceKind;
}

export function servedQuery(q: ServedQuery) {
  return {
    queryKey: onboardingKeys.served(q),
    queryFn: async () => unwrap(await http.post<Page<ServiceBinding>>(`${servicer}/brander`, q)),
  };
}

export function useEndBinding() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (bindingId: string) => http.del<null>(`${servicer}/brander/${bindingId}`),
    onSuccess: (r) => r?.ok && void qc.invalidateQueries({ queryKey: onboardingKeys.servedAll }),
  });
}

/** The token exchange (spec 01 §6): a brand token for one bound brand, asked with the provider's session. */
export function useBrandTokenExchange() {
  return useMutation({
    mutationFn: (bindingId: string) => http.post<BrandTokenReply>(`${servicer}/brander/${bindingId}/token`),
  });
}
