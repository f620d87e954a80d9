import { useQuery } from "@tanstack/react-query";
import { Button, Descriptions, Drawer, Flex, Table } from "antd";
import { useTranslation } from "react-i18next";
import type { Redemption, SettlementDoc } from "@tessera/contracts";
import { saveFile } from "../../api/http";
import { formatMoney } from "../../ui/money";
import { writeOffApi } from "./api";
import { formatTime } from "../../ui/time";

/** Opens the document as a plain printable page (the browser prints it or saves it as PDF). */
function printDoc(title: string, head: [string, string][], columns: string[], rows: string[][]) {
  const w = window.open("", "_blank");
  if (!w) return;
  const d = w.document;
  d.title = title;
  const h = d.createElement("h2");
  h.textContent = title;
  const meta = d.createElement("table");
  for (const [k, v] of head) {
    const tr = meta.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = v;
  }
  const table = d.createElement("table");
  table.border = "1";
  table.cellPadding = "4";
  table.style.borderCollapse = "collapse";
  table.style.marginTop = "12px";
  const hr = table.insertRow();
  for (const c of columns) {
    const th = d.createElement("th");
    th.textContent = c;
    hr.appendChild(th);
  }
  for (const r of rows) {
    const tr = table.insertRow();
    for (const c of r) tr.insertCell().textContent = c;
  }
  d.body.style.font = "13px sans-serif";
  d.body.append(h, meta, table);
  w.print();
}

/**
 * A settlement document: its figures, its redemptions, the xlsx and the printable document. `served`: a
 * provider reads a document of a brand it serves (WriteFund), through the provider's calls.
 */
export function DocDrawer({
  doc,
  onClose,
  served = false,
}: {
  doc: SettlementDoc;
  onClose: () => void;
  served?: boolean;
}) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ["stores", "doc", served ? "fund" : "brand", doc.id],
    queryFn: () => (served ? writeOffApi.fundDoc(doc.id, doc.branderId) : writeOffApi.doc(doc.id)),
  });
  const lines = q.data?.lines ?? [];
  const columns = [
    t("writeoff.time"),
    t("writeoff.item"),
    t("writeoff.code"),
    t("writeoff.value"),
    t("writeoff.settleAmount"),
    t("writeoff.clerk"),
  ];
  const print = () =>
    printDoc(
      `${t("writeoff.title.doc")} #${doc.id}`,
      [
        [t("stores.brand"), doc.branderName],
        [t("writeoff.store"), doc.storeName],
        [t("writeoff.day"), doc.day],
        [t("writeoff.count"), String(doc.count)],
        [t("writeoff.value"), formatMoney(doc.value)],
        [t("writeoff.settleAmount"), formatMoney(doc.amount)],
        [t("writeoff.paid"), formatMoney(doc.paid)],
      ],
      columns,
      lines.map((l) => [
        formatTime(l.createdAt, { seconds: true }),
        l.itemName,
        l.codeMask,
        formatMoney(l.value),
        formatMoney(l.settleAmount),
        l.clerkName,
      ]),
    );
  const xlsx = async () => {
    const r = await (served ? writeOffApi.fundDocXlsx(doc) : writeOffApi.docXlsx(doc));
    if (r?.ok) saveFile(r.data.blob, r.data.fileName);
  };
  const pdf = async () => {
    const r = await (served ? writeOffApi.fundDocPdf(doc) : writeOffApi.docPdf(doc));
    if (r?.ok) saveFile(r.data.blob, r.data.fileName);
  };
  return (
    <Drawer open size={760} title={`${t("writeoff.title.doc")} #${doc.id}`} onClose={onClose}>
      <Descriptions column={2} size="small" bordered>
        <Descriptions.Item label={t("stores.brand")}>{doc.branderName}</Descriptions.Item>
        <Descriptions.Item label={t("writeoff.store")}>{doc.storeName}</Descriptions.Item>
        <Descriptions.Item label={t("writeoff.day")}>{doc.day}</Descriptions.Item>
        <Descriptions.Item label={t("writeoff.count")}>{doc.count}</Descriptions.Item>
        <Descriptions.Item label={t("writeoff.value")}>{formatMoney(doc.value)}</Descriptions.Item>
        <Descriptions.Item label={t("writeoff.settleAmount")}>{formatMoney(doc.amount)}</Descriptions.Item>
        <Descriptions.Item label={t("writeoff.paid")}>{formatMoney(doc.paid)}</Descriptions.Item>
      </Descriptions>
      <Flex gap={8} style={{ margin: "16px 0" }}>
        <Button onClick={() => void xlsx()}>{t("writeoff.xlsx")}</Button>
        <Button onClick={() => void pdf()} data-testid="doc-pdf">
          {t("writeoff.pdf")}
        </Button>
        <Button onClick={print} disabled={!q.data}>
          {t("writeoff.print")}
        </Button>
      </Flex>
      <Table<Redemption>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={lines}
        pagination={false}
        columns={[
          {
            title: t("writeoff.time"),
            dataIndex: "createdAt",
            render: (v: string) => formatTime(v, { seconds: true }),
          },
          { title: t("writeoff.item"), dataIndex: "itemName" },
          { title: t("writeoff.code"), dataIndex: "codeMask" },
          {
            title: t("writeoff.settleAmount"),
            dataIndex: "settleAmount",
            align: "right",
            render: (m: Redemption["settleAmount"]) => formatMoney(m),
          },
        ]}
      />
    </Drawer>
  );
}
