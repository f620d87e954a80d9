import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Flex, Form, Input, Segmented, Select } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { digitsOnly } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { newRequestKey, ocKeys, type ActivateSelection } from "./api";
import { CardPicker } from "./CardPicker";
import { useConfirmActivation } from "./useConfirmActivation";
import { useSaleOptions } from "./useSaleOptions";

type Mode = "cards" | "range" | "sale";

/**
 * `/sale/ActivateCard`: activates bought cards, all or nothing: chosen cards, a number range of one
 * batch (first and last number, e.g. from an extraction) or every sold card of one purchase. The card's
 * price goes to the brand's income; the same request key (kept until the selection changes) activates once.
 * It asks first, with the price paid that goes to the brand and the face value loaded (issue 37).
 */
export default function ActivateCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const saleOptions = useSaleOptions();
  const [mode, setMode] = useState<Mode>("cards");
  const [selected, setSelected] = useState<string[]>([]);
  const [range, setRange] = useState({ from: "", to: "" });
  const [saleId, setSaleId] = useState<string | undefined>();
  const [requestKey, setRequestKey] = useState(() => newRequestKey("ocact"));
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const confirmActivation = useConfirmActivation();

  const fresh = () => setRequestKey(newRequestKey("ocact"));
  const selection: ActivateSelection | null =
    mode === "cards"
      ? selected.length
        ? { cardIds: selected }
        : null
      : mode === "range"
        ? range.from && range.to
          ? { range }
          : null
        : saleId
          ? { saleId }
          : null;

  const activate = async () => {
    if (!selection) {
      void message.warning(t("onecard.bo.chooseFirst"));
      return;
    }
    setBusy(true);
    try {
      // Asks with the amount and its effect first; the cards are activated only on the answer.
      await confirmActivation(selection, requestKey, (r) => {
        setDone(t("onecard.bo.activatedResult", { count: r.count, amount: formatMoney(r.amount) }));
        setSelected([]);
        fresh();
        void qc.invalidateQueries({ queryKey: ocKeys.all });
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={16}>
      <PageHint
        id="sale.ActivateCard"
        title={t("onecard.bo.page.ActivateCard")}
        description={t("onecard.bo.hintActivate")}
      />
      <Card variant="borderless">
        <Flex vertical gap={16}>
          <div>
            <Segmented<Mode>
              value={mode}
              onChange={(m) => {
                setMode(m);
                setDone(null);
                fresh();
              }}
              options={[
                { value: "cards", label: t("onecard.bo.byCards") },
                { value: "range", label: t("onecard.bo.byRange") },
                { value: "sale", label: t("onecard.bo.bySale") },
              ]}
            />
          </div>
          {mode === "cards" && (
            <CardPicker
              state="sold"
              selected={selected}
              saleOptions={saleOptions}
              onChange={(ids) => {
                setSelected(ids);
                fresh();
              }}
            />
          )}
          {mode === "range" && (
            <Form layout="inline" style={{ rowGap: 12 }}>
              <Form.Item label={t("onecard.bo.rangeFrom")}>
                <Input
                  data-testid="range-from"
                  inputMode="numeric"
                  style={{ width: 220 }}
                  value={range.from}
                  onChange={(e) => {
                    setRange({ ...range, from: digitsOnly(e.target.value).slice(0, 16) });
                    fresh();
                  }}
                />
              </Form.Item>
              <Form.Item label={t("onecard.bo.rangeTo")}>
                <Input
                  data-testid="range-to"
                  inputMode="numeric"
                  style={{ width: 220 }}
                  value={range.to}
                  onChange={(e) => {
                    setRange({ ...range, to: digitsOnly(e.target.value).slice(0, 16) });
                    fresh();
                  }}
                />
              </Form.Item>
            </Form>
          )}
          {mode === "sale" && (
            <Select
              allowClear
              style={{ width: 420, maxWidth: "100%", alignSelf: "flex-start" }}
              placeholder={t("onecard.bo.filterSale")}
              options={saleOptions}
              value={saleId}
              onChange={(v?: string) => {
                setSaleId(v);
                fresh();
              }}
            />
          )}
          {done && <Alert type="success" showIcon title={done} closable onClose={() => setDone(null)} />}
          <div>
            <Button type="primary" loading={busy} onClick={() => void activate()} data-testid="activate-submit">
              {t("onecard.bo.activate")}
            </Button>
          </div>
        </Flex>
      </Card>
    </Flex>
  );
}
