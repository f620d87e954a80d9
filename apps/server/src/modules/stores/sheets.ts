import { renderMessage, STORE_LIMITS, type Lang, type MessageKey } from "@tessera/contracts";
import { loadExcel } from "../../platform/heavy-libraries";
import { regionByNames } from "../../platform/regions";
import { cellText, DEFAULT_XLSX_LIMITS, readXlsxRows, XlsxRefused } from "../../platform/xlsx";

export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The import template's columns in each language (the import accepts any of them). */
export const STORE_HEADERS: Record<Lang, string[]> = {
  cn: [
    "门店名称",
    "省份",
    "城市",
    "区县",
    "详细地址",
    "经度",
    "纬度",
    "营业时间",
    "联系人",
    "联系电话",
    "商圈",
    "状态（营业/停业）",
  ],
  tw: [
    "門店名稱",
    "省份",
    "城市",
    "區縣",
    "詳細地址",
    "經度",
    "緯度",
    "營業時間",
    "聯絡人",
    "聯絡電話",
    "商圈",
    "狀態（營業/停業）",
  ],
  en: [
    "Store name",
    "Province",
    "City",
    "County",
    "Address",
    "Longitude",
    "Latitude",
    "Opening hours",
    "Contact",
    "Contact phone",
    "Business district",
    "State (open/closed)",
  ],
};
const EXAMPLE = [
  "示例门店",
  "广东省",
  "深圳市",
  "南山区",
  "科技园路1号",
  "113.95",
  "22.54",
  "09:00-21:00",
  "张三",
  "0755-12345678",
  "",
  "营业",
];
const STATE_WORDS: Record<string, "open" | "closed"> = {
  营业: "open",
  營業: "open",
  open: "open",
  停业: "closed",
  停業: "closed",
  closed: "closed",
};

const INSTRUCTIONS: Record<Lang, { title: string; lines: string[]; example: string }> = {
  cn: {
    title: "填写说明",
    lines: [
      "在「stores」工作表中每行填写一个门店；门店名称、省份、城市、区县、详细地址必填。",
      "省份、城市、区县按全称填写（如：广东省、深圳市、南山区）；直辖市的城市填写与省份相同（如：北京市、北京市、东城区）。",
      "经纬度可不填；商圈须为已建的商圈名称，可不填；状态填写营业或停业，不填为营业。",
      "下面是一行示例，仅用于说明格式：导入时会被拒绝。",
    ],
    example: "示例",
  },
  tw: {
    title: "填寫說明",
    lines: [
      "在「stores」工作表中每行填寫一個門店；門店名稱、省份、城市、區縣、詳細地址必填。",
      "省份、城市、區縣按全稱填寫（如：广东省、深圳市、南山区）；直轄市的城市填寫與省份相同。",
      "經緯度可不填；商圈須為已建的商圈名稱，可不填；狀態填寫營業或停業，不填為營業。",
      "下面是一行示例，僅用於說明格式：匯入時會被拒絕。",
    ],
    example: "示例",
  },
  en: {
    title: "How to fill in",
    lines: [
      'In the "stores" sheet, one store per row; name, province, city, county and address are required.',
      "Write the province, city and county by their full Chinese names (e.g. 广东省, 深圳市, 南山区); a municipality repeats its name as the city (北京市, 北京市, 东城区).",
      "Longitude and latitude may be empty; a business district must be one you created; the state is open or closed (empty: open).",
      "The row below only shows the format: an import refuses it.",
    ],
    example: "Example",
  },
};

export async function storeTemplate(lang: Lang): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("stores");
  ws.columns = STORE_HEADERS[lang].map((header) => ({ header, width: 18, style: { numFmt: "@" } }));
  ws.getRow(1).font = { bold: true };
  const help = INSTRUCTIONS[lang];
  const info = wb.addWorksheet(help.title);
  info.getColumn(1).width = 120;
  info.addRow([help.title]).font = { bold: true };
  for (const line of help.lines) info.addRow([line]);
  info.addRow([]);
  info.addRow([`${help.example}: ${STORE_HEADERS[lang].join(" | ")}`]);
  info.addRow([`${help.example}: ${EXAMPLE.join(" | ")}`]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export class BadStoreFile extends Error {
  constructor(
    readonly key: "stores.fileUnreadable" | "stores.headerMismatch" | "stores.batchTooLarge" | "import.fileTooLarge",
  ) {
    super(key);
  }
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[（(].*$/, "")
    .replace(/\s+/g, "");

/**
 * The rows of an import file as store requests for `batch` (region names turned into codes, district
 * names into ids, the state word into open/closed), with the file's row numbers. Rows that cannot even
 * become a request (unknown region) get a request the batch check refuses with the right reason.
 */
export async function readStoreFile(
  file: Buffer,
  districts: Map<string, number>,
): Promise<{ rows: unknown[]; rowNos: number[]; examples: number[] }> {
  const rows: unknown[] = [];
  const rowNos: number[] = [];
  const examples: number[] = [];
  const known = Object.values(STORE_HEADERS).map((h) => h.map(norm));
  let sawHeader = false;
  try {
    // Bounded before it is parsed (platform/xlsx.ts): zip bombs refused, rows streamed, stopped at the batch limit.
    for await (const { rowNo, cells } of readXlsxRows(file, {
      ...DEFAULT_XLSX_LIMITS,
      maxRows: STORE_LIMITS.maxBatch,
    })) {
      const c = cells.map(cellText);
      if (rowNo === 1) {
        const header = c.map(norm);
        if (!known.some((h) => h.slice(0, 5).every((x, i) => header[i] === x))) {
          throw new BadStoreFile("stores.headerMismatch");
        }
        sawHeader = true;
        continue;
      }
      if (!sawHeader) throw new BadStoreFile("stores.headerMismatch");
      if (c.every((x) => x === "")) continue;
      const [
        name = "",
        province = "",
        city = "",
        county = "",
        address = "",
        lng = "",
        lat = "",
        hours = "",
        contact = "",
        phone = "",
        district = "",
        state = "",
      ] = c;
      if (c.slice(0, 5).join("|") === EXAMPLE.slice(0, 5).join("|")) {
        examples.push(rowNo);
        continue;
      }
      const region = regionByNames(province, city, county) ?? { provinceCode: "x", cityCode: "x", countyCode: "x" };
      const num = (s: string) => (s === "" ? null : Number.isFinite(Number(s)) ? Number(s) : s);
      rows.push({
        name,
        ...region,
        address,
        lng: num(lng),
        lat: num(lat),
        openingHours: hours,
        contactName: contact,
        contactPhone: phone,
        state: state === "" ? "open" : (STATE_WORDS[state.toLowerCase()] ?? state),
        districtId: district === "" ? null : String(districts.get(district) ?? "0"),
      });
      rowNos.push(rowNo);
    }
  } catch (err) {
    if (!(err instanceof XlsxRefused)) throw err;
    throw new BadStoreFile(
      err.reason === "tooLarge"
        ? "import.fileTooLarge"
        : err.reason === "tooManyRows"
          ? "stores.batchTooLarge"
          : "stores.fileUnreadable",
    );
  }
  // A sheet without its header row (an empty one included) is not the template.
  if (!sawHeader) throw new BadStoreFile("stores.headerMismatch");
  return { rows, rowNos, examples };
}

const REPORT_HEADERS: Record<Lang, [string, string, string]> = {
  cn: ["行号", "门店名称", "原因"],
  tw: ["行號", "門店名稱", "原因"],
  en: ["Row", "Store name", "Reason"],
};

export async function storeRejectReport(
  lang: Lang,
  rows: { row_no: number; reason: string; name: string }[],
): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("rejects");
  ws.columns = REPORT_HEADERS[lang].map((header, i) => ({ header, width: i === 2 ? 40 : 18 }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow([r.row_no, r.name, renderMessage(`stores.reject.${r.reason}` as MessageKey, lang)]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
