import Nzh from "nzh";
import type { Lang, StatementDetail, StatementState } from "@tessera/contracts";
import { pdfDocument, pdfTable, type PdfColumn } from "../../platform/pdf";
import { capitals } from "../invoices";
import { displayTime } from "../../platform/clock";

/**
 * A provider's monthly commission statement as a printable A4 PDF, in the reader's language: the
 * provider, month, state, refund window and figures (the closing amount also in Chinese capitals in
 * Chinese), then one line per served merchant. Noto Sans SC is embedded (platform/pdf.ts).
 */
interface Labels {
  title: string;
  provider: string;
  period: string;
  state: string;
  closedAt: string;
  payableFrom: string;
  paidAt: string;
  opening: string;
  accrued: string;
  clawedBack: string;
  closing: string;
  inCapitals: string;
  lines: string;
  merchant: string;
  side: string;
  orders: string;
  basis: string;
  net: string;
  brand: string;
  vendor: string;
  printed: string;
  states: Record<StatementState, string>;
}

const LABELS: Record<Lang, Labels> = {
  cn: {
    title: "服务商月度佣金账单",
    provider: "服务商",
    period: "月份",
    state: "状态",
    closedAt: "月结时间",
    payableFrom: "可结算日期",
    paidAt: "结算时间",
    opening: "期初结转",
    accrued: "佣金",
    clawedBack: "退款扣回",
    closing: "应结佣金",
    inCapitals: "应结佣金（大写）",
    lines: "明细数",
    merchant: "服务商户",
    side: "类型",
    orders: "订单数",
    basis: "计佣金额",
    net: "净佣金",
    brand: "品牌方",
    vendor: "采购商",
    printed: "打印时间",
    states: { draft: "待确认", paid: "已结算", carried: "结转下月" },
  },
  tw: {
    title: "服務商月度傭金賬單",
    provider: "服務商",
    period: "月份",
    state: "狀態",
    closedAt: "月結時間",
    payableFrom: "可結算日期",
    paidAt: "結算時間",
    opening: "期初結轉",
    accrued: "傭金",
    clawedBack: "退款扣回",
    closing: "應結傭金",
    inCapitals: "應結傭金（大寫）",
    lines: "明細數",
    merchant: "服務商戶",
    side: "類型",
    orders: "訂單數",
    basis: "計傭金額",
    net: "淨傭金",
    brand: "品牌方",
    vendor: "採購商",
    printed: "列印時間",
    states: { draft: "待確認", paid: "已結算", carried: "結轉下月" },
  },
  en: {
    title: "Monthly commission statement",
    provider: "Service provider",
    period: "Month",
    state: "State",
    closedAt: "Closed",
    payableFrom: "Payable from",
    paidAt: "Paid",
    opening: "Carried in",
    accrued: "Commission",
    clawedBack: "Clawed back",
    closing: "Closing",
    inCapitals: "",
    lines: "Lines",
    merchant: "Served merchant",
    side: "Side",
    orders: "Orders",
    basis: "Basis",
    net: "Net",
    brand: "Brand",
    vendor: "Purchaser",
    printed: "Printed",
    states: { draft: "To confirm", paid: "Paid", carried: "Carried forward" },
  },
};

/** A served merchant's side, as the page, the PDF and the .xlsx name it. */
export function sideLabel(lang: Lang, side: "brand" | "vendor"): string {
  return side === "brand" ? LABELS[lang].brand : LABELS[lang].vendor;
}

const amount = (m: { amount: number; currency: string }) =>
  `${(m.amount / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${m.currency}`;
/** An instant in the platform's display zone (TZ_DISPLAY), to the second. */
const platformTime = (iso: string) => displayTime(iso);

/** The closing amount in Chinese capitals: simplified for cn, traditional (圓) for tw; none in English. */
function inCapitals(lang: Lang, minor: number): string | null {
  if (lang === "cn") return capitals(minor);
  if (lang === "en") return null;
  const abs = Math.abs(minor);
  const words = Nzh.hk.toMoney(`${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`, {
    outSymbol: false,
    forceZheng: true,
  });
  return minor < 0 ? `負${words}` : words;
}

export async function statementPdf(
  lang: Lang,
  s: StatementDetail,
  providerName: string,
  printedAt: Date,
): Promise<Buffer> {
  const L = LABELS[lang];
  const { doc, done } = await pdfDocument({
    size: "A4",
    margin: 40,
    info: { Title: `${L.title} ${s.period}`, Author: providerName, Producer: "Tessera" },
  });
  const left = 40;
  const width = 515;
  doc.font("cjk-bold").fontSize(18).fillColor("#111").text(L.title, left, 40, { width, align: "center" });
  doc.font("cjk").fontSize(10).fillColor("#333");
  const head: [string, string][] = [
    [L.provider, `${providerName} (${s.providerId})`],
    [L.period, s.period],
    [L.state, L.states[s.state]],
    [L.closedAt, platformTime(s.closedAt)],
    [L.payableFrom, s.payableFrom],
    [L.paidAt, s.paidAt ? platformTime(s.paidAt) : "-"],
    [L.opening, amount(s.opening)],
    [L.accrued, amount(s.accrued)],
    [L.clawedBack, amount(s.clawedBack)],
    [L.lines, String(s.lines)],
  ];
  head.forEach(([k, v], i) => {
    const x = left + (i % 2) * (width / 2);
    const y = 80 + Math.floor(i / 2) * 18;
    doc.text(`${k}: ${v}`, x, y, { width: width / 2 - 8, lineBreak: false, ellipsis: true });
  });
  let y = 80 + Math.ceil(head.length / 2) * 18 + 6;
  doc
    .font("cjk-bold")
    .fontSize(12)
    .fillColor("#111")
    .text(`${L.closing}: ${amount(s.closing)}`, left, y, { width });
  y += 20;
  const words = inCapitals(lang, s.closing.amount);
  if (words) {
    doc.font("cjk").fontSize(10).fillColor("#333").text(`${L.inCapitals}: ${words}`, left, y, { width });
    y += 18;
  }

  const columns: PdfColumn[] = [
    { title: L.merchant, width: 150, align: "left" },
    { title: L.side, width: 55, align: "left" },
    { title: L.orders, width: 45, align: "right" },
    { title: L.basis, width: 75, align: "right" },
    { title: L.accrued, width: 65, align: "right" },
    { title: L.clawedBack, width: 60, align: "right" },
    { title: L.net, width: 65, align: "right" },
  ];
  const money = (m: { amount: number }) =>
    (m.amount / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const rows = s.merchants.map((m) => [
    `${m.merchantName} (${m.merchantId})`,
    sideLabel(lang, m.side),
    String(m.orders),
    money(m.basis),
    money(m.accrued),
    money(m.clawedBack),
    money(m.net),
  ]);
  y = pdfTable(doc, { left, top: y + 14, width }, columns, rows);
  doc
    .font("cjk")
    .fontSize(8)
    .fillColor("#777")
    .text(`${L.printed}: ${platformTime(printedAt.toISOString())}`, left, y + 10);
  doc.end();
  return done;
}
