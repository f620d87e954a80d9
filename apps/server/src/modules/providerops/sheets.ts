import type { BatchPurchaseLine, Lang } from "@tessera/contracts";
import { loadExcel } from "../../platform/heavy-libraries";
import { cellText, DEFAULT_XLSX_LIMITS, readXlsxRows, XlsxRefused } from "../../platform/xlsx";

export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The BatchPurchase template's columns in each language (an upload may use any of them). */
export const BATCH_HEADERS: Record<Lang, [string, string, string, string, string]> = {
  cn: ["采购商账号或商户ID", "商品ID", "数量", "充值账号（直充商品）", "请求号"],
  tw: ["採購商賬號或商戶ID", "商品ID", "數量", "充值賬號（直充商品）", "請求號"],
  en: [
    "Purchaser account or merchant ID",
    "Goods ID",
    "Quantity",
    "Top-up account (direct top-up goods)",
    "Request key",
  ],
};

const INSTRUCTIONS: Record<Lang, string[]> = {
  cn: [
    "每行一笔采购：为您服务的采购商购买商品，从该采购商的采购资金账户扣款。",
    "采购商：填写其商户ID或主账号邮箱；商品ID见供货商品列表；数量为正整数；直充商品须填写充值账号。",
    "请求号：6-64位字母、数字、-或_，作为该采购商的订单号；同一请求号重复提交不会重复采购。",
    "每行单独处理：成功的行生成订单，失败的行不产生任何变化，结果文件中写明原因。",
  ],
  tw: [
    "每行一筆採購：為您服務的採購商購買商品，從該採購商的採購資金賬戶扣款。",
    "採購商：填寫其商戶ID或主賬號郵箱；商品ID見供貨商品列表；數量為正整數；直充商品須填寫充值賬號。",
    "請求號：6-64位字母、數字、-或_，作為該採購商的訂單號；同一請求號重複提交不會重複採購。",
    "每行單獨處理：成功的行生成訂單，失敗的行不產生任何變化，結果文件中寫明原因。",
  ],
  en: [
    "One purchase per row: goods bought for a purchaser you serve, paid from that purchaser's purchase fund account.",
    "Purchaser: its merchant ID or main account e-mail; goods ID as in the supplied goods list; quantity a positive whole number; direct top-up goods need the account to top up.",
    "Request key: 6-64 letters, digits, - or _, used as the purchaser's order number; the same key sent again never buys twice.",
    "Each row stands alone: a good row becomes an order, a bad row changes nothing and the result file says why.",
  ],
};
const HELP_TITLE: Record<Lang, string> = { cn: "填写说明", tw: "填寫說明", en: "How to fill in" };

export async function batchTemplate(lang: Lang): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("purchases");
  ws.columns = BATCH_HEADERS[lang].map((header) => ({ header, width: 26, style: { numFmt: "@" } }));
  ws.getRow(1).font = { bold: true };
  const info = wb.addWorksheet(HELP_TITLE[lang]);
  info.getColumn(1).width = 120;
  info.addRow([HELP_TITLE[lang]]).font = { bold: true };
  for (const line of INSTRUCTIONS[lang]) info.addRow([line]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export class BadBatchFile extends Error {
  constructor(
    readonly key: "batch.fileUnreadable" | "batch.headerMismatch" | "batch.tooManyLines" | "import.fileTooLarge",
  ) {
    super(key);
  }
}

export interface BatchRow {
  row: number;
  purchaser: string;
  goodsId: string;
  quantity: string;
  topUpAccount: string;
  requestKey: string;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[（(].*$/, "")
    .replace(/\s+/g, "");

/** The lines of an uploaded BatchPurchase file, as text, with their row numbers; blank rows skipped. */
export async function readBatchFile(file: Buffer, maxLines: number): Promise<BatchRow[]> {
  const rows: BatchRow[] = [];
  let sawHeader = false;
  try {
    // Bounded before it is parsed (platform/xlsx.ts): zip bombs refused, rows streamed, stopped past maxLines.
    for await (const { rowNo, cells } of readXlsxRows(file, { ...DEFAULT_XLSX_LIMITS, maxRows: maxLines })) {
      if (rowNo === 1) {
        const header = cells.map((v) => norm(cellText(v)));
        if (!Object.values(BATCH_HEADERS).some((h) => h.every((x, i) => norm(x) === header[i]))) {
          throw new BadBatchFile("batch.headerMismatch");
        }
        sawHeader = true;
        continue;
      }
      if (!sawHeader) throw new BadBatchFile("batch.headerMismatch");
      const c = cells.slice(0, 5).map(cellText);
      if (c.every((x) => x === "")) continue;
      const [purchaser = "", goodsId = "", quantity = "", topUpAccount = "", requestKey = ""] = c;
      rows.push({ row: rowNo, purchaser, goodsId, quantity, topUpAccount, requestKey });
    }
  } catch (err) {
    if (!(err instanceof XlsxRefused)) throw err;
    throw new BadBatchFile(
      err.reason === "tooLarge"
        ? "import.fileTooLarge"
        : err.reason === "tooManyRows"
          ? "batch.tooManyLines"
          : "batch.fileUnreadable",
    );
  }
  if (!sawHeader) throw new BadBatchFile("batch.headerMismatch");
  return rows;
}

const RESULT_HEADERS: Record<Lang, string[]> = {
  cn: ["行号", ...BATCH_HEADERS.cn, "结果", "订单号", "订单状态", "金额", "原因"],
  tw: ["行號", ...BATCH_HEADERS.tw, "結果", "訂單號", "訂單狀態", "金額", "原因"],
  en: ["Row", ...BATCH_HEADERS.en, "Result", "Order no.", "Order status", "Amount", "Reason"],
};
const STATE_TEXT: Record<Lang, Record<BatchPurchaseLine["state"], string>> = {
  cn: { ordered: "已下单", replayed: "已下单（重复提交）", refused: "未下单" },
  tw: { ordered: "已下單", replayed: "已下單（重複提交）", refused: "未下單" },
  en: { ordered: "Ordered", replayed: "Ordered before (resubmitted)", refused: "Not ordered" },
};
const ORDER_STATE_TEXT: Record<Lang, Record<"processing" | "success" | "failure", string>> = {
  cn: { processing: "处理中", success: "成功", failure: "失败" },
  tw: { processing: "處理中", success: "成功", failure: "失敗" },
  en: { processing: "Processing", success: "Success", failure: "Failed" },
};

/** The result file of a BatchPurchase: every line of the upload with its order or the reason it was refused. */
export async function batchResultFile(lang: Lang, lines: BatchPurchaseLine[]): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("result");
  ws.columns = RESULT_HEADERS[lang].map((header, i) => ({ header, width: i === 0 ? 8 : i === 10 ? 40 : 22 }));
  ws.getRow(1).font = { bold: true };
  for (const l of lines) {
    ws.addRow([
      l.row,
      l.purchaser,
      l.goodsId,
      l.quantity,
      l.topUpAccount,
      l.requestKey,
      STATE_TEXT[lang][l.state],
      l.orderNo ?? "",
      l.orderState ? ORDER_STATE_TEXT[lang][l.orderState] : "",
      l.amount ? l.amount.amount / 100 : "",
      l.reason ?? "",
    ]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
