import {
  WECHAT_INDUSTRIES,
  renderMessage,
  type ApplyRecord,
  type Currency,
  type Lang,
  type MessageKey,
  type PayCode,
  type PayOrder,
  type PayRefund,
} from "@tessera/contracts";
import type { Selectable } from "kysely";
import { iso, maskMiddle, money } from "../../platform/present";
import type { PayApplicationsTable } from "./tables";

/** How collection shows its rows: applications (masked once submitted), codes, payments and refunds. */

export type AppRow = Selectable<PayApplicationsTable>;
export { iso, money };
/** An ID or account number on an application the aggregator has: `keep` characters at each end. */
export const maskKept = (s: string, keep = 4) => maskMiddle(s, { head: keep, tail: keep, short: (v) => v });
export const EDITABLE: readonly string[] = ["EDITTING", "REJECTED"];
const imageUrl = (key: string) => (key ? `/api/card-brander/paymentApplyRecords/images/${key}` : null);

export function presentApplication(r: AppRow, lang: Lang): ApplyRecord {
  // Masked once with the aggregator; a draft or a rejected application is the merchant's to edit, in full.
  const submitted = !EDITABLE.includes(r.state);
  return {
    id: String(r.id),
    businessCode: r.business_code,
    state: r.state,
    companyName: r.company_name,
    creditCode: r.credit_code,
    legalPerson: r.legal_person,
    legalIdNo: submitted ? maskKept(r.legal_id_no, 3) : r.legal_id_no,
    contactName: r.contact_name,
    contactPhone: r.contact_phone,
    industryCode: r.industry_code,
    industryName: WECHAT_INDUSTRIES.find((i) => i.code === r.industry_code)?.name[lang] ?? "",
    bankName: r.bank_name,
    bankAccount: submitted ? maskKept(r.bank_account) : r.bank_account,
    bankAccountName: r.bank_account_name,
    licenceImage: r.licence_image,
    licenceUrl: imageUrl(r.licence_image),
    idCardFront: r.id_card_front,
    idCardFrontUrl: imageUrl(r.id_card_front),
    idCardBack: r.id_card_back,
    idCardBackUrl: imageUrl(r.id_card_back),
    rejectReason: r.reject_reason,
    signUrl: r.state === "TO_BE_SIGNED" && r.sign_token ? `/paySign/${r.sign_token}` : null,
    subMchid: r.sub_mchid,
    feeBps: r.fee_bps,
    submittedAt: iso(r.submitted_at),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export function presentCode(
  r: {
    id: number;
    passport_id: number;
    name: string;
    store_id: number | null;
    token: string;
    amount: number | null;
    created_at: Date;
  },
  origin: string,
): PayCode {
  return {
    id: String(r.id),
    passportId: String(r.passport_id),
    name: r.name,
    storeId: r.store_id === null ? null : String(r.store_id),
    amount: r.amount,
    url: `${origin}/pay/${r.token}`,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export function presentOrder(r: {
  id: number;
  order_no: string;
  code_name: string;
  amount: number | string;
  fee: number | string;
  refunded: number | string;
  currency: Currency;
  state: PayOrder["state"];
  note: string;
  paid_at: Date | null;
  created_at: Date;
}): PayOrder {
  const amount = Number(r.amount);
  const fee = Number(r.fee);
  return {
    id: String(r.id),
    orderNo: r.order_no,
    codeName: r.code_name,
    amount: money(amount, r.currency),
    fee: money(fee, r.currency),
    net: money(amount - fee, r.currency),
    refunded: money(Number(r.refunded), r.currency),
    state: r.state,
    note: r.note,
    paidAt: iso(r.paid_at),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export function presentRefund(
  r: {
    id: number;
    order_id: number;
    order_no: string;
    amount: number | string;
    fee: number | string;
    currency: Currency;
    state: PayRefund["state"];
    reason: string;
    fail_reason: string | null;
    created_at: Date;
  },
  lang: Lang,
): PayRefund {
  return {
    id: String(r.id),
    orderId: String(r.order_id),
    orderNo: r.order_no,
    amount: money(Number(r.amount), r.currency),
    feeBack: money(Number(r.fee), r.currency),
    state: r.state,
    reason: r.reason,
    failReason: r.fail_reason === null ? null : renderMessage(r.fail_reason as MessageKey, lang),
    createdAt: new Date(r.created_at).toISOString(),
  };
}
