import Nzh from "nzh";
import { pdfDocument } from "../../pdf";

/**
 * The local e-invoice's PDF: the layout of a full-digital (数电) invoice — title, number and date, buyer
 * and seller, the line with its rate and tax, the total in figures and in Chinese capitals, remark and
 * issuer — in Noto Sans SC, embedded (subset) so every reader shows the Chinese text and can extract it.
 */

export interface InvoiceDocument {
  invoiceNo: string;
  /** The blue invoice a red-letter one reverses. */
  reverses?: string;
  issuedOn: string;
  category: "ordinary" | "special";
  rateBp: number;
  /** Tax-inclusive amount and its tax, minor units (negative on a red-letter invoice). */
  amount: number;
  taxAmount: number;
  itemName: string;
  buyer: { name: string; taxId: string; address: string; phone: string; bank: string; bankAccount: string };
  seller: { name: string; taxId: string; address: string; bank: string; bankAccount: string };
  remark: string;
  issuer: string;
  /** The buyer's e-signature signer (its TicketSignature settings, when e-signing is on). */
  signer?: { name: string; phone: string };
}

/** Yuan with two decimals, from minor units (e.g. -1234 → "-12.34"). */
export function yuan(minor: number): string {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100).toLocaleString("en-US")}.${String(abs % 100).padStart(2, "0")}`;
}

/** An amount in Chinese capitals (大写), e.g. 1000050 → 壹万元伍角整; a negative one reads 负…. */
export function capitals(minor: number): string {
  const abs = Math.abs(minor);
  const words = Nzh.cn.toMoney(`${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`, {
    outSymbol: false,
    forceZheng: true,
  });
  return minor < 0 ? `负${words}` : words;
}

export async function renderInvoicePdf(d: InvoiceDocument): Promise<Buffer> {
  const { doc, done } = await pdfDocument({
    size: [684, 420],
    margins: { top: 24, left: 24, right: 24, bottom: 0 },
    info: {
      Title: `${d.reverses ? "红字" : ""}电子发票 ${d.invoiceNo}`,
      Author: d.seller.name,
      Producer: "Tessera",
      CreationDate: new Date(`${d.issuedOn}T00:00:00+08:00`),
    },
  });

  const red = d.reverses !== undefined;
  const ink = red ? "#b3261e" : "#8a4b08";
  const kind = d.category === "special" ? "增值税专用发票" : "普通发票";
  const left = 24;
  const width = 636;

  doc
    .font("cjk-bold")
    .fontSize(18)
    .fillColor(ink)
    .text(`电子发票（${kind}）${red ? "（红字）" : ""}`, left, 26, { width, align: "center" });
  doc.font("cjk").fontSize(9).fillColor("#333");
  doc.text(`发票号码：${d.invoiceNo}`, left + 440, 56, { width: 196 });
  doc.text(`开票日期：${d.issuedOn}`, left + 440, 70, { width: 196 });

  // Buyer and seller.
  const top = 90;
  doc.lineWidth(0.8).strokeColor(ink).rect(left, top, width, 300).stroke();
  doc
    .moveTo(left + width / 2, top)
    .lineTo(left + width / 2, top + 84)
    .stroke();
  doc
    .moveTo(left, top + 84)
    .lineTo(left + width, top + 84)
    .stroke();
  const party = (
    x: number,
    label: string,
    p: { name: string; taxId: string; address: string; phone?: string; bank: string; bankAccount: string },
  ) => {
    doc
      .font("cjk-bold")
      .fontSize(9)
      .fillColor(ink)
      .text(label, x + 6, top + 6);
    doc.font("cjk").fontSize(8.5).fillColor("#222");
    const lines = [
      `名称：${p.name}`,
      `统一社会信用代码/纳税人识别号：${p.taxId || "-"}`,
      `地址、电话：${[p.address, p.phone].filter(Boolean).join(" ") || "-"}`,
      `开户行及账号：${[p.bank, p.bankAccount].filter(Boolean).join(" ") || "-"}`,
    ];
    lines.forEach((l, i) =>
      doc.text(l, x + 6, top + 20 + i * 15, { width: width / 2 - 12, lineBreak: false, ellipsis: true }),
    );
  };
  party(left, "购买方信息", d.buyer);
  party(left + width / 2, "销售方信息", d.seller);

  // The line.
  const cols = [
    { t: "项目名称", x: 0, w: 210, a: "left" as const },
    { t: "单位", x: 210, w: 50, a: "center" as const },
    { t: "数量", x: 260, w: 50, a: "right" as const },
    { t: "金额", x: 310, w: 120, a: "right" as const },
    { t: "税率/征收率", x: 430, w: 80, a: "right" as const },
    { t: "税额", x: 510, w: 120, a: "right" as const },
  ];
  const net = d.amount - d.taxAmount;
  const values = [
    `*信息技术服务*${d.itemName}`,
    "项",
    red ? "-1" : "1",
    yuan(net),
    `${d.rateBp / 100}%`,
    yuan(d.taxAmount),
  ];
  doc.font("cjk-bold").fontSize(9).fillColor(ink);
  cols.forEach((c) => doc.text(c.t, left + 6 + c.x, top + 92, { width: c.w, align: c.a }));
  doc.font("cjk").fontSize(9).fillColor("#222");
  cols.forEach((c, i) =>
    doc.text(values[i] ?? "", left + 6 + c.x, top + 110, { width: c.w, align: c.a, lineBreak: false, ellipsis: true }),
  );
  doc
    .font("cjk-bold")
    .fillColor(ink)
    .text("合　计", left + 6, top + 168, { width: 200 });
  doc.font("cjk").fillColor("#222");
  doc.text(`¥${yuan(net)}`, left + 6 + 310, top + 168, { width: 120, align: "right" });
  doc.text(`¥${yuan(d.taxAmount)}`, left + 6 + 510, top + 168, { width: 120, align: "right" });

  // Totals.
  doc
    .moveTo(left, top + 188)
    .lineTo(left + width, top + 188)
    .stroke();
  doc
    .font("cjk-bold")
    .fillColor(ink)
    .text("价税合计（大写）", left + 6, top + 198);
  doc
    .font("cjk")
    .fillColor("#222")
    .text(capitals(d.amount), left + 110, top + 198, { width: 300 });
  doc
    .font("cjk-bold")
    .fillColor(ink)
    .text("（小写）", left + 420, top + 198);
  doc
    .font("cjk")
    .fillColor("#222")
    .text(`¥${yuan(d.amount)}`, left + 470, top + 198, { width: 160 });

  // Remark.
  doc
    .moveTo(left, top + 218)
    .lineTo(left + width, top + 218)
    .stroke();
  doc
    .font("cjk-bold")
    .fillColor(ink)
    .text("备注", left + 6, top + 226);
  const remark = [red ? `被红冲蓝字发票号码：${d.reverses}` : "", d.remark].filter(Boolean).join("  ");
  doc
    .font("cjk")
    .fillColor("#222")
    .text(remark || "-", left + 40, top + 226, { width: width - 52, height: 66, ellipsis: true });

  doc
    .font("cjk")
    .fontSize(9)
    .fillColor("#333")
    .text(`开票人：${d.issuer}`, left + 6, top + 306);
  if (d.signer) {
    const phone = d.signer.phone ? `（${d.signer.phone.replace(/^(\d{3})\d{4}(\d{4})$/, "$1****$2")}）` : "";
    doc.text(`购买方电子签名：${d.signer.name}${phone}`, left + 330, top + 306, { width: width - 336, align: "right" });
  }
  doc.end();
  return done;
}
