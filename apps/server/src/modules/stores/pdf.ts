import type { Lang, Redemption, SettlementDoc } from "@tessera/contracts";
import { pdfDocument, pdfTable, type PdfColumn } from "../../platform/pdf";
import { displayTime } from "../../platform/clock";

/**
 * A settlement document (核销结算单) as a printable A4 PDF: brand, store, day, counts and amounts, and
 * one line per redemption, in Noto Sans SC embedded (subset), so Chinese names print in every reader.
 */
const LABELS: Record<
  Lang,
  {
    title: string;
    brand: string;
    store: string;
    day: string;
    count: string;
    value: string;
    amount: string;
    no: string;
    time: string;
    item: string;
    code: string;
    clerk: string;
    settled: string;
    coupon: string;
    onecard: string;
    printed: string;
  }
> = {
  cn: {
    title: "核销结算单",
    brand: "品牌",
    store: "门店",
    day: "核销日期",
    count: "核销笔数",
    value: "核销价值",
    amount: "结算金额",
    no: "单号",
    time: "时间",
    item: "商品",
    code: "券码/卡号",
    clerk: "店员",
    settled: "结算金额",
    coupon: "券码",
    onecard: "一卡通",
    printed: "打印时间",
  },
  tw: {
    title: "核銷結算單",
    brand: "品牌",
    store: "門店",
    day: "核銷日期",
    count: "核銷筆數",
    value: "核銷價值",
    amount: "結算金額",
    no: "單號",
    time: "時間",
    item: "商品",
    code: "券碼/卡號",
    clerk: "店員",
    settled: "結算金額",
    coupon: "券碼",
    onecard: "一卡通",
    printed: "列印時間",
  },
  en: {
    title: "Redemption settlement document",
    brand: "Brand",
    store: "Store",
    day: "Day",
    count: "Redemptions",
    value: "Value",
    amount: "Settled amount",
    no: "No.",
    time: "Time",
    item: "Item",
    code: "Code / card",
    clerk: "Clerk",
    settled: "Settled",
    coupon: "Code",
    onecard: "One-card",
    printed: "Printed",
  },
};

const major = (m: { amount: number }) => (m.amount / 100).toFixed(2);
/** The time of day of a redemption in the display zone (the document is one platform day). */
const hhmm = (iso: string) => displayTime(iso).slice(11);

export async function settlementPdf(
  lang: Lang,
  d: { doc: SettlementDoc; lines: Redemption[] },
  printedAt: Date,
): Promise<Buffer> {
  const L = LABELS[lang];
  const { doc, done } = await pdfDocument({
    size: "A4",
    margin: 40,
    info: { Title: `${L.title} ${d.doc.id}`, Author: d.doc.branderName, Producer: "Tessera" },
  });
  const left = 40;
  const width = 515;
  doc.font("cjk").fontSize(18).fillColor("#111").text(L.title, left, 40, { width, align: "center" });
  doc.fontSize(10).fillColor("#333");
  const head: [string, string][] = [
    [L.no, d.doc.id],
    [L.brand, d.doc.branderName],
    [L.store, d.doc.storeName],
    [L.day, d.doc.day],
    [L.count, String(d.doc.count)],
    [L.value, `${major(d.doc.value)} ${d.doc.value.currency}`],
    [L.amount, `${major(d.doc.amount)} ${d.doc.amount.currency}`],
  ];
  head.forEach(([k, v], i) => {
    const x = left + (i % 2) * (width / 2);
    const y = 80 + Math.floor(i / 2) * 18;
    doc.text(`${k}：${v}`, x, y, { width: width / 2 - 8, lineBreak: false, ellipsis: true });
  });
  const columns: PdfColumn[] = [
    { title: L.time, width: 60, align: "left" },
    { title: L.item, width: 150, align: "left" },
    { title: L.code, width: 120, align: "left" },
    { title: L.value, width: 60, align: "right" },
    { title: L.settled, width: 60, align: "right" },
    { title: L.clerk, width: 65, align: "left" },
  ];
  const rows = d.lines.map((l) => [
    hhmm(l.createdAt),
    l.itemName,
    l.codeMask,
    major(l.value),
    major(l.settleAmount),
    l.clerkName,
  ]);
  const y = pdfTable(doc, { left, top: 160, width }, columns, rows);
  doc
    .fontSize(8)
    .fillColor("#777")
    .text(`${L.printed}：${displayTime(printedAt)}`, left, y + 10);
  doc.end();
  return done;
}
