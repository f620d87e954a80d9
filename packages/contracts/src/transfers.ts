import { z } from "zod";
import { CURRENCIES } from "./enums";
import { amountField, requestKeyField } from "./funds";
import { pageOf, pageQuery } from "./paging";

/**
 * Transfers between merchants (spec 01 §7: transfer/check, transfers, contract/transfers,
 * transfer/contracts, transfers/{id}, transfers/{id}/refuse, applyTransitAuth, confirmTransitAuth).
 * The sender authorises outgoing transfers once with an SMS code; a transfer is created (and may be
 * updated) by the sender, then accepted or refused by the recipient. Money moves only on acceptance.
 */

const merchantIdField = z
  .string({ error: "transfer.targetEmpty" })
  .trim()
  .min(1, { error: "transfer.targetEmpty" })
  .regex(/^\d{1,18}$/, { error: "transfer.targetNotFound" });
const remarkField = z.string().trim().max(200, { error: "funds.reasonLength" });

export const transferCheckQuery = z.object({ toMerchantId: merchantIdField });
export const transferCheckReply = z.object({
  merchantId: z.string(),
  merchantName: z.string(),
  currency: z.enum(CURRENCIES),
  /** Whether the sender has authorised outgoing transfers. */
  authorised: z.boolean(),
});

export const transferReq = z.strictObject({
  toMerchantId: merchantIdField,
  amount: amountField,
  remark: remarkField.optional(),
  requestKey: requestKeyField,
});
export type TransferReq = z.infer<typeof transferReq>;
export const contractTransferReq = transferReq.extend({
  contractNo: z
    .string({ error: "transfer.contractEmpty" })
    .trim()
    .min(1, { error: "transfer.contractEmpty" })
    .regex(/^[A-Za-z0-9-]{1,40}$/, { error: "transfer.contractInvalid" }),
});
export type ContractTransferReq = z.infer<typeof contractTransferReq>;
export const transferUpdateReq = z.strictObject({ amount: amountField.optional(), remark: remarkField.optional() });
export const transferRefuseReq = z.strictObject({
  reason: z
    .string({ error: "funds.reasonEmpty" })
    .trim()
    .min(1, { error: "funds.reasonEmpty" })
    .max(200, { error: "funds.reasonLength" }),
});
export const transitAuthConfirmReq = z.strictObject({
  smsCode: z.string({ error: "validation.smsCodeEmpty" }).trim().min(1, { error: "validation.smsCodeEmpty" }),
});

export const TRANSFER_STATES = ["created", "refused", "completed"] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

const money = z.object({ amount: z.number().int(), currency: z.enum(CURRENCIES) });
export const transfer = z.object({
  id: z.string(),
  direction: z.enum(["out", "in"]),
  fromMerchantId: z.string(),
  fromMerchantName: z.string(),
  toMerchantId: z.string(),
  toMerchantName: z.string(),
  amount: money,
  remark: z.string(),
  contractNo: z.string().nullable(),
  state: z.enum(TRANSFER_STATES),
  refuseReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Transfer = z.infer<typeof transfer>;

export const transferQuery = pageQuery.extend({
  direction: z.enum(["out", "in"]).optional(),
  state: z.enum(TRANSFER_STATES).optional(),
});
export type TransferQuery = z.infer<typeof transferQuery>;
export const transferPage = pageOf(transfer);

export const transferContract = z.object({
  contractNo: z.string(),
  transfers: z.number().int(),
  completed: money,
  pending: money,
  lastAt: z.string(),
});
export const transferContractsReply = z.array(transferContract);
