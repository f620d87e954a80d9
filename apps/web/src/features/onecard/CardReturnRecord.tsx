import { useQueryClient } from "@tanstack/react-query";
import { App, Form, Input, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../../api/queryKeys";
import { confirmMoney } from "../../ui/confirmMoney";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { newRequestKey, ocKeys, ocSaleApi, type OcReturnRow } from "./api";
import { time } from "./labels";
import { PickCardsDialog } from "./PickCardsDialog";

/**
 * `/sale/CardReturnRecord`: returns of unactivated cards (refunded to the SUP account at the price
 * paid) and a dialog to return cards: choose sold, not activated cards and give a reason. The return asks
 * first, with the number of cards and the amount that comes back to SUP (issue 37).
 */
export default function CardReturnRecord() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [requestKey, setRequestKey] = useState(() => newRequestKey("ocret"));

  const columns: TableColumnsType<OcReturnRow> = [
    { title: t("onecard.bo.returnNo"), dataIndex: "id", width: 110 },
    { title: t("onecard.bo.createdAt"), dataIndex: "createdAt", width: 170, render: time },
    { title: t("onecard.bo.count"), dataIndex: "count", width: 110, align: "right" },
    {
      title: t("onecard.bo.refund"),
      dataIndex: "amount",
      width: 150,
      align: "right",
      render: (m: OcReturnRow["amount"]) => formatMoney(m),
    },
    { title: t("onecard.bo.reason"), dataIndex: "reason", ellipsis: true, render: (v: string) => v || "-" },
  ];
  return (
    <>
      <ListPage<OcReturnRow>
        header={
          <PageHint
            id="sale.CardReturnRecord"
            title={t("onecard.bo.page.CardReturnRecord")}
            description={t("onecard.bo.hintReturn")}
          />
        }
        rowKey="id"
        columns={columns}
        search={{
          add: {
            label: t("onecard.bo.returnCards"),
            onClick: () => {
              setRequestKey(newRequestKey("ocret"));
              setReason("");
              setOpen(true);
            },
          },
        }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize };
          return { queryKey: ocKeys.returns(q), queryFn: () => ocSaleApi.returns(q) };
        }}
      />
      {open && (
        <PickCardsDialog
          title={t("onecard.bo.returnCards")}
          okText={t("onecard.bo.return")}
          state="sold"
          onClose={() => setOpen(false)}
          onSubmit={async (cardIds) => {
            // Returning asks first (issue 37): the server tells what the return would do (a selection it
            // would refuse is refused here, before any dialog); the cards go back only on the answer, and
            // the picking dialog stays open when the purchaser cancels.
            const preview = await ocSaleApi.returnPreview(cardIds);
            if (!preview?.ok) return false;
            const { count, amount } = preview.data;
            confirmMoney(modal, {
              action: t("onecard.bo.returnCardsCount", { count }),
              amount,
              effect: t("onecard.bo.returnEffect", { count, amount: formatMoney(amount) }),
              testId: "return-confirm",
              onOk: async () => {
                const r = await ocSaleApi.returnCards({ cardIds, reason, requestKey });
                if (!r?.ok) return;
                void message.success(
                  t("onecard.bo.returnedMsg", { count: r.data.count, amount: formatMoney(r.data.amount) }),
                );
                void qc.invalidateQueries({ queryKey: ocKeys.all });
                void qc.invalidateQueries({ queryKey: queryKeys.userInfoAll });
                setOpen(false);
              },
            });
            return false;
          }}
        >
          <Form layout="vertical" style={{ marginTop: 12 }}>
            <Form.Item label={t("onecard.bo.reason")}>
              <Input
                maxLength={200}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                data-testid="return-reason"
              />
            </Form.Item>
          </Form>
        </PickCardsDialog>
      )}
    </>
  );
}
