import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** A `date` column: read back as YYYY-MM-DD text (cast in the repo), written as text. */
type DateText = ColumnType<string | null, string | null, string | null>;

/** Tables owned by the onboarding module (migration 0009). */
export interface MerchantProfilesTable {
  merchant_id: number;
  legal_representative: string | null;
  contact_name: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  address: string | null;
  industry: string | null;
  logo_key: string | null;
  updated_at: Timestamp;
}

export interface RealNameDocumentsTable {
  id: Id;
  merchant_id: number;
  kind: "license" | "id_front" | "id_back";
  storage_key: string;
  content_type: string;
  width: number;
  height: number;
  uploaded_by: number;
  created_at: Timestamp;
}

export interface RealNameApplicationsTable {
  id: Id;
  merchant_id: number;
  state: "pending" | "approved" | "rejected";
  company_name: string;
  license_number: string;
  license_valid_until: DateText;
  legal_name: string;
  legal_id_number: string;
  id_valid_until: DateText;
  license_doc_id: number;
  id_front_doc_id: number;
  id_back_doc_id: number;
  submitted_by: number;
  submitted_at: Timestamp;
  reviewed_by: number | null;
  reviewed_at: Timestamp | null;
  reject_reason: string | null;
  expired_at: Timestamp | null;
}

export interface ApiPermissionRequestsTable {
  id: Id;
  merchant_id: number;
  state: "pending" | "approved" | "rejected";
  purpose: string;
  requested_by: number;
  requested_at: Timestamp;
  reviewed_by: number | null;
  reviewed_at: Timestamp | null;
  reject_reason: string | null;
}

export interface ApiCredentialsTable {
  merchant_id: number;
  app_key: string;
  secret_ciphertext: string;
  secret_issued_at: Timestamp;
  ip_allowlist: ColumnType<string[], string[] | undefined, string[]>;
  callback_url: string | null;
  updated_at: Timestamp;
}

export interface AgreementSignaturesTable {
  id: Id;
  merchant_id: number;
  kind: "reserveAuthorisation" | "eSignature";
  version: string;
  lang: string;
  title: string;
  body: string;
  body_sha256: string;
  signed_by: number;
  signer_email: string;
  phone: string;
  ip: string | null;
  user_agent: string | null;
  signed_at: Timestamp;
}

export interface ServiceBindingsTable {
  id: Id;
  merchant_id: number;
  provider_id: number;
  /** Migration 0073: what the merchant bound the provider as. */
  kind: "brand" | "vendor";
  state: "active" | "removed";
  bound_by: number;
  bound_at: Timestamp;
  removed_by: number | null;
  removed_at: Timestamp | null;
}

export interface BrandTokensTable {
  id: Id;
  binding_id: number;
  merchant_id: number;
  user_id: number;
  session_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface CommitLettersTable {
  id: Id;
  merchant_id: number;
  storage_key: string;
  content_type: string;
  file_name: string;
  size_bytes: number;
  uploaded_by: number;
  uploaded_at: Timestamp;
}

export interface OnboardingTables {
  commit_letters: CommitLettersTable;
  brand_tokens: BrandTokensTable;
  service_bindings: ServiceBindingsTable;
  agreement_signatures: AgreementSignaturesTable;
  merchant_profiles: MerchantProfilesTable;
  real_name_documents: RealNameDocumentsTable;
  real_name_applications: RealNameApplicationsTable;
  api_permission_requests: ApiPermissionRequestsTable;
  api_credentials: ApiCredentialsTable;
}
