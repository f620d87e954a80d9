import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  BankCard,
  BankCardReq,
  BankDetails,
  CreditReq,
  FundAccount,
  FundChangeRow,
  Money,
  Page,
  StatementReply,
  TopUpNotice,
  TopUpReq,
  TopUpState,
  Transfer,
  TransferReq,
  Withdrawal,
  WithdrawalAction,
  WithdrawReq,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { queryKeys } from "../../api/queryKeys";

/** The funds feature's react-query keys (balances, top-ups, withdrawals, transfers, statements). */
export const fundsKeys = {
  fundChanges: (account: FundAccount, query: Query) => ["fundChanges", account, query] as const,
  fundChangesAll: ["fundChanges"] as const,
  bankDetails: ["bankDetails"] as const,
  topUps: (scope: "mine" | "ops", query: Query) => ["topUps", scope, query] as const,
  topUpsAll: ["topUps"] as const,
  withdrawalCard: ["withdrawalCard"] as const,
  withdrawals: (scope: "mine" | "ops", query: Query) => ["withdrawals", scope, query] as const,
  withdrawalsAll: ["withdrawals"] as const,
  transfers: (query: Query) => ["transfers", query] as const,
  transfersAll: ["transfers"] as const,
  transitAuth: ["transitAuth"] as const,
  statements: (unit: "day" | "month", range: { from: string; to: string }) => ["statements", unit, range] as const,
};

/** Funds calls: top-ups, reserve transfers, fund-change lists, and the operator's review. */
const userBase = "/api/card-user/funds";
const opsBase = "/api/ops/funds";

export type FundChangePage = Page<FundChangeRow> & { balance: Money };
export interface MovementReply {
  transactionId: string;
  replayed: boolean;
  balances: { reserve: Money; sup: Money; income: Money };
}

/** A fresh key per user action: a retried request (double click, network retry) moves money once. */
export function newRequestKey(): string {
  return crypto.randomUUID();
}

/** Where each fund account's list lives: suppliers read income at the brand owner path. */
export function fundListPaths(account: FundAccount): { list: string; export: string } {
  return account === "income"
    ? { list: "/api/card-brander/order/fund/search", export: "/api/card-brander/order/fund/export" }
    : { list: `${userBase}/changes`, export: `${userBase}/changes/export` };
}

export function fundChangesQuery(account: FundAccount, query: Query) {
  const q = { ...query, account };
  return {
    queryKey: fundsKeys.fundChanges(account, q),
    queryFn: async () => unwrap(await http.get<FundChangePage>(fundListPaths(account).list, { query: q })),
  };
}

export function useBankDetails() {
  return useQuery({
    queryKey: fundsKeys.bankDetails,
    queryFn: async () => unwrap(await http.get<BankDetails>(`${userBase}/bank`)),
  });
}

export function topUpsQuery(
  query: Query & { page: number; pageSize: number; state?: TopUpState },
  scope: "mine" | "ops",
) {
  return {
    queryKey: fundsKeys.topUps(scope, query),
    queryFn: async () =>
      unwrap(await http.get<Page<TopUpNotice>>(`${scope === "ops" ? opsBase : userBase}/topups`, { query })),
  };
}

export function useUploadProof() {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append("file", file);
      return http.post<{ proofId: string; url: string }>(`${userBase}/proofs`, body, { toast: false });
    },
  });
}

/** Invalidates everything a movement of money changes: balances, lists, notices. */
function useInvalidateFunds() {
  const queryClient = useQueryClient();
  return () => {
    for (const key of [queryKeys.userInfoAll, fundsKeys.fundChangesAll, fundsKeys.topUpsAll]) {
      void queryClient.invalidateQueries({ queryKey: key });
    }
  };
}

export function useSubmitTopUp() {
  const invalidate = useInvalidateFunds();
  return useMutation({
    mutationFn: (req: TopUpReq) => http.post<TopUpNotice>(`${userBase}/topups`, req, { toast: false }),
    onSuccess: invalidate,
  });
}

export function useReserveTransfer() {
  const invalidate = useInvalidateFunds();
  return useMutation({
    mutationFn: (req: { amount: number; requestKey: string }) =>
      http.post<MovementReply>(`${userBase}/reserveTransfer`, req, { toast: false }),
    onSuccess: invalidate,
  });
}

export function useReviewTopUp() {
  const invalidate = useInvalidateFunds();
  return useMutation({
    mutationFn: (review: { id: string; decision: "confirm" } | { id: string; decision: "reject"; reason: string }) =>
      review.decision === "confirm"
        ? http.post<TopUpNotice>(`${opsBase}/topups/${review.id}/confirm`)
        : http.post<TopUpNotice>(`${opsBase}/topups/${review.id}/reject`, { reason: review.reason }, { toast: false }),
    onSuccess: invalidate,
  });
}

export function useOperatorMovement() {
  const invalidate = useInvalidateFunds();
  return useMutation({
    mutationFn: ({ merchantId, kind, ...req }: CreditReq & { merchantId: string; kind: "credit" | "topUpRefund" }) =>
      http.post<MovementReply>(`${opsBase}/merchants/${merchantId}/${kind}`, req, { toast: false }),
    onSuccess: invalidate,
  });
}

/* ---------- withdrawals ---------- */

const withdrawBase = "/api/card-brander/withdraws";

export function useWithdrawalCard() {
  return useQuery({
    queryKey: fundsKeys.withdrawalCard,
    queryFn: async () => unwrap(await http.get<BankCard | null>(`${withdrawBase}/card`)),
  });
}

export function useSaveWithdrawalCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: BankCardReq) => http.post<BankCard>(`${withdrawBase}/card`, req, { toast: false }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: fundsKeys.withdrawalCard }),
  });
}

export function withdrawalsQuery(query: Query & { page: number; pageSize: number }, scope: "mine" | "ops") {
  return {
    queryKey: fundsKeys.withdrawals(scope, query),
    queryFn: async () =>
      unwrap(await http.get<Page<Withdrawal>>(scope === "ops" ? "/api/ops/withdrawals" : withdrawBase, { query })),
  };
}

export function useRequestWithdrawal() {
  const invalidate = useInvalidateFunds();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: WithdrawReq) => http.post<Withdrawal>(withdrawBase, req, { toast: false }),
    onSuccess: () => {
      invalidate();
      void queryClient.invalidateQueries({ queryKey: fundsKeys.withdrawalsAll });
    },
  });
}

export function useWithdrawalAction() {
  const invalidate = useInvalidateFunds();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: string; action: WithdrawalAction; reason?: string }) =>
      http.post<Withdrawal>(
        `/api/ops/withdrawals/${id}/action`,
        { action, ...(reason && { reason }) },
        { toast: false },
      ),
    onSuccess: () => {
      invalidate();
      void queryClient.invalidateQueries({ queryKey: fundsKeys.withdrawalsAll });
    },
  });
}

export function useStatement(unit: "day" | "month", range: { from: string; to: string }) {
  return useQuery({
    queryKey: fundsKeys.statements(unit, range),
    queryFn: async () =>
      unwrap(
        await http.get<StatementReply>(`/api/card-brander/${unit === "day" ? "statements" : "settlements"}`, {
          query: range,
        }),
      ),
  });
}

/* ---------- transfers ---------- */

const brander = "/api/card-brander";

export function transfersQuery(query: Query & { page: number; pageSize: number }) {
  return {
    queryKey: fundsKeys.transfers(query),
    queryFn: async () => unwrap(await http.get<Page<Transfer>>(`${brander}/transfers`, { query })),
  };
}

export function checkTransferTarget(toMerchantId: string) {
  return http.get<{ merchantId: string; merchantName: string; currency: string; authorised: boolean }>(
    `${brander}/transfer/check`,
    { query: { toMerchantId }, toast: false },
  );
}

export function useTransitAuth() {
  return useQuery({
    queryKey: fundsKeys.transitAuth,
    queryFn: async () =>
      unwrap(await http.get<{ authorised: boolean; authorisedAt: string | null }>(`${brander}/transitAuth`)),
  });
}

function useTransferMutation<A>(fn: (args: A) => ReturnType<typeof http.put<Transfer>>) {
  const invalidate = useInvalidateFunds();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      invalidate();
      void queryClient.invalidateQueries({ queryKey: fundsKeys.transfersAll });
    },
  });
}

export const useCreateTransfer = () =>
  useTransferMutation((req: TransferReq & { contractNo?: string }) =>
    http.post<Transfer>(
      `${brander}/${req.contractNo ? "contract/transfers" : "transfers"}`,
      req.contractNo ? req : { ...req, contractNo: undefined },
      { toast: false },
    ),
  );
export const useDecideTransfer = () =>
  useTransferMutation(({ id, decision, reason }: { id: string; decision: "accept" | "refuse"; reason?: string }) =>
    http.put<Transfer>(`${brander}/transfers/${id}/${decision}`, decision === "refuse" ? { reason } : undefined, {
      toast: false,
    }),
  );

export function useApplyTransitAuth() {
  return useMutation({
    mutationFn: () =>
      http.put<{ phone: string; resendIn: number }>(`${brander}/applyTransitAuth`, undefined, { toast: false }),
  });
}
export function useConfirmTransitAuth() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (smsCode: string) =>
      http.put<{ authorised: boolean }>(`${brander}/confirmTransitAuth`, { smsCode }, { toast: false }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: fundsKeys.transitAuth }),
  });
}
