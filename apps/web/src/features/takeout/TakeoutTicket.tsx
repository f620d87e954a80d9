import { useQuery } from "@tanstack/react-query";
import { Button, Spin } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { formatMoney } from "../../ui/money";
import { takeoutApi, takeoutKeys } from "./api";
import { formatTime } from "../../ui/time";

/** `/business/TakeoutTicket?id=`: a kitchen ticket sized for a 58 mm receipt printer; Print opens the browser's print dialog. */
export default function TakeoutTicket() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const { data: o } = useQuery({
    queryKey: takeoutKeys.order(id),
    queryFn: () => takeoutApi.order(id),
    enabled: Boolean(id),
  });
  if (!o) return <Spin />;
  return (
    <div
      style={{ width: 300, margin: "0 auto", fontFamily: "monospace", fontSize: 13, background: "#fff", padding: 12 }}
      data-testid="kitchen-ticket"
    >
      <style>
        {
          "@media print { body * { visibility: hidden } [data-testid=kitchen-ticket], [data-testid=kitchen-ticket] * { visibility: visible } [data-testid=kitchen-ticket] { position: absolute; left: 0; top: 0 } .no-print { display: none } }"
        }
      </style>
      <div style={{ textAlign: "center", fontWeight: 700, fontSize: 16 }}>{o.shopName}</div>
      <div style={{ textAlign: "center" }}>{t("takeout.ticket")}</div>
      <div>{o.orderNo}</div>
      <div>{formatTime(o.createdAt)}</div>
      <hr />
      {o.lines.map((l, i) => (
        <div key={i} style={{ marginBottom: 4 }}>
          <div style={{ fontWeight: 700, fontSize: 15 }}>
            {l.name} × {l.quantity}
          </div>
          {l.options.length > 0 && <div>{l.options.join(" / ")}</div>}
        </div>
      ))}
      <hr />
      {o.tableware > 0 && (
        <div>
          {t("takeout.tableware")}: {o.tableware}
        </div>
      )}
      {o.remark && (
        <div>
          {t("takeout.remark")}: {o.remark}
        </div>
      )}
      <div>{`${o.contactName} ${o.contactPhone}`}</div>
      <div>{o.address}</div>
      <div style={{ fontWeight: 700 }}>
        {t("takeout.total")}: {formatMoney(o.total)}
      </div>
      <Button className="no-print" type="primary" block style={{ marginTop: 12 }} onClick={() => window.print()}>
        {t("takeout.print")}
      </Button>
    </div>
  );
}
