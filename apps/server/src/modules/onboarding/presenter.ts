import type { ApiInfoReply, Industry, ProfileReply, RealNameApplication } from "@tessera/contracts";
import { maskMiddle } from "../../platform/present";
import type { MerchantRow } from "../merchants";
import type { ProfileRow } from "./profile.repo";
import type { ApplicationRow } from "./realname.repo";

/** Shows the first 3 and last 4 characters of an ID number; the rest as asterisks. */
export function maskIdNumber(v: string): string {
  return maskMiddle(v, { head: 3, tail: 4 });
}

export const LOGO_URL = "/api/card-brander/brander/profile/logo";
export const documentUrl = (id: number) => `/api/card-user/realNameAuths/images/${id}`;
export const reviewDocumentUrl = (id: number) => `/api/ops/documents/${id}`;

export function presentProfile(m: MerchantRow, p: ProfileRow | undefined): ProfileReply {
  return {
    merchantId: String(m.id),
    companyName: m.name,
    legalRepresentative: p?.legal_representative ?? null,
    contactName: p?.contact_name ?? null,
    contactPhone: p?.contact_phone ?? null,
    contactEmail: p?.contact_email ?? null,
    address: p?.address ?? null,
    industry: (p?.industry as Industry | null | undefined) ?? null,
    logoUrl: p?.logo_key ? `${LOGO_URL}?v=${p.updated_at.getTime()}` : null,
    realNameState: m.real_name_state,
    apiPermission: m.api_permission,
    updatedAt: (p?.updated_at ?? m.updated_at).toISOString(),
  };
}

/** A merchant sees its own application with the ID number masked; an operator reviewing sees it whole. */
export function presentApplication(a: ApplicationRow, audience: "merchant" | "operator"): RealNameApplication {
  const url = audience === "merchant" ? documentUrl : reviewDocumentUrl;
  return {
    id: String(a.id),
    state: a.state,
    companyName: a.company_name,
    licenseNumber: a.license_number,
    licenseValidUntil: a.license_valid_until,
    legalName: a.legal_name,
    legalIdNumber: audience === "merchant" ? maskIdNumber(a.legal_id_number) : a.legal_id_number,
    idValidUntil: a.id_valid_until,
    submittedAt: a.submitted_at.toISOString(),
    reviewedAt: a.reviewed_at?.toISOString() ?? null,
    rejectReason: a.reject_reason,
    documents: { license: url(a.license_doc_id), idFront: url(a.id_front_doc_id), idBack: url(a.id_back_doc_id) },
  };
}

/** The earlier of two validity dates (YYYY-MM-DD compare as text); null when both are permanent. */
export function earlierDate(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a < b ? a : b;
}

export function emptyApiInfo(permission: ApiInfoReply["permission"]): ApiInfoReply {
  return {
    permission,
    request: null,
    appKey: null,
    hasSecret: false,
    secretIssuedAt: null,
    ipAllowlist: [],
    callbackUrl: null,
  };
}
