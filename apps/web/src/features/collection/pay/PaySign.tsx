import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Checkbox, Descriptions, Result } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { collectionApi } from "../api";
import { PhoneScreen } from "../../stores/PhoneScreen";

/** `/paySign/:token`: the aggregator's signing link for the merchant's administrator (the local adapter's stand-in). */
export default function PaySign() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ["paySign", token], queryFn: () => collectionApi.signInfo(token), retry: false });
  const [agreed, setAgreed] = useState(false);
  const sign = async () => {
    const r = await collectionApi.sign(token);
    if (r?.ok) void qc.invalidateQueries({ queryKey: ["paySign", token] });
  };
  const rec = q.data;
  return (
    <PhoneScreen title={t("collection.title.sign")}>
      {q.isError && <Result status="404" title={t("collection.signGone")} />}
      {rec && (
        <Card>
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t("collection.companyName")}>{rec.companyName}</Descriptions.Item>
            <Descriptions.Item label={t("collection.businessCode")}>{rec.businessCode}</Descriptions.Item>
            <Descriptions.Item label={t("collection.industry")}>{rec.industryName}</Descriptions.Item>
            <Descriptions.Item label={t("collection.feeRate")}>{(rec.feeBps / 100).toFixed(2)}%</Descriptions.Item>
            <Descriptions.Item label={t("collection.bankAccount")}>{rec.bankAccount}</Descriptions.Item>
          </Descriptions>
          {rec.state === "TO_BE_SIGNED" ? (
            <>
              <Checkbox checked={agreed} onChange={(e) => setAgreed(e.target.checked)} style={{ margin: "12px 0" }}>
                {t("collection.agree")}
              </Checkbox>
              <Button
                type="primary"
                block
                size="large"
                disabled={!agreed}
                onClick={() => void sign()}
                data-testid="sign-submit"
              >
                {t("collection.signButton")}
              </Button>
            </>
          ) : (
            <Result status="success" title={t(`collection.state.${rec.state}`)} data-testid="sign-done" />
          )}
        </Card>
      )}
    </PhoneScreen>
  );
}
