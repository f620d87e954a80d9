/**
 * Messages of the catalog (brands, goods, goods selection) and supply (supplied goods, card secrets,
 * card imports), in the three languages. Merged into MESSAGES by messages.ts.
 */
export const CATALOG_MESSAGES = {
  // a top-up account refused by its goods' account type (catalog.ts, topUpAccountProblem)
  "topUpAccount.invalid.mobile": {
    cn: "请输入正确的11位手机号",
    tw: "請輸入正確的11位手機號",
    en: "Enter a valid 11-digit mobile number",
  },
  "topUpAccount.invalid.qq": {
    cn: "请输入正确的QQ号（5-11位数字，不以0开头）",
    tw: "請輸入正確的QQ號（5-11位數字，不以0開頭）",
    en: "Enter a valid QQ number (5-11 digits, not starting with 0)",
  },
  "topUpAccount.invalid.email": {
    cn: "请输入正确的邮箱",
    tw: "請輸入正確的郵箱",
    en: "Enter a valid email address",
  },
  "topUpAccount.invalid.game_id": {
    cn: "请输入正确的游戏ID（4-32位字母、数字、_或-）",
    tw: "請輸入正確的遊戲ID（4-32位字母、數字、_或-）",
    en: "Enter a valid game ID (4-32 letters, digits, _ or -)",
  },
  "topUpAccount.invalid.member_id": {
    cn: "请输入正确的会员账号（2-64个字符，不含空格）",
    tw: "請輸入正確的會員賬號（2-64個字符，不含空格）",
    en: "Enter a valid membership account (2-64 characters, no spaces)",
  },
  // brands
  "catalog.brandNameEmpty": { cn: "品牌名称不能为空", tw: "品牌名稱不能為空", en: "Brand name cannot be empty" },
  "catalog.brandNameLength": {
    cn: "品牌名称不能超过50个字符",
    tw: "品牌名稱不能超過50個字符",
    en: "Brand name cannot exceed 50 characters",
  },
  "catalog.brandNameTaken": {
    cn: "该品牌名称已存在",
    tw: "該品牌名稱已存在",
    en: "A brand with this name already exists",
  },
  "catalog.brandMissing": { cn: "请选择品牌", tw: "請選擇品牌", en: "Please choose a brand" },
  "catalog.brandInUse": {
    cn: "该品牌下仍有商品，不能删除",
    tw: "該品牌下仍有商品，不能刪除",
    en: "This brand still has goods and cannot be deleted",
  },
  // goods
  "catalog.goodsNameEmpty": { cn: "商品名称不能为空", tw: "商品名稱不能為空", en: "Goods name cannot be empty" },
  "catalog.goodsNameLength": {
    cn: "商品名称不能超过100个字符",
    tw: "商品名稱不能超過100個字符",
    en: "Goods name cannot exceed 100 characters",
  },
  "catalog.goodsCodeInvalid": {
    cn: "商品编码须为1-32位字母、数字、-或_",
    tw: "商品編碼須為1-32位字母、數字、-或_",
    en: "The goods code must be 1-32 letters, digits, - or _",
  },
  "catalog.goodsCodeTaken": { cn: "该商品编码已存在", tw: "該商品編碼已存在", en: "This goods code is already in use" },
  "catalog.faceValueInvalid": {
    cn: "面值须为大于0的金额",
    tw: "面值須為大於0的金額",
    en: "The face value must be an amount greater than 0",
  },
  "catalog.priceInvalid": {
    cn: "价格须为大于0的金额",
    tw: "價格須為大於0的金額",
    en: "The price must be an amount greater than 0",
  },
  "catalog.settlementPriceInvalid": {
    cn: "结算底价须为不小于0且不高于售价的金额",
    tw: "結算底價須為不小於0且不高於售價的金額",
    en: "The settlement base price must be at least 0 and not above the price",
  },
  "catalog.perOrderInvalid": {
    cn: "单次购买数量须为1-10000的整数",
    tw: "單次購買數量須為1-10000的整數",
    en: "The quantity per order must be a whole number from 1 to 10000",
  },
  "catalog.indexInvalid": {
    cn: "指数须为0-100的整数",
    tw: "指數須為0-100的整數",
    en: "An index must be a whole number from 0 to 100",
  },
  "catalog.weightInvalid": {
    cn: "权重须为0-9999的整数",
    tw: "權重須為0-9999的整數",
    en: "The weight must be a whole number from 0 to 9999",
  },
  "catalog.textTooLong": { cn: "内容过长", tw: "內容過長", en: "The text is too long" },
  "catalog.imagesTooMany": { cn: "最多上传9张图片", tw: "最多上傳9張圖片", en: "At most 9 images may be uploaded" },
  "catalog.imageUnknown": {
    cn: "图片不存在，请重新上传",
    tw: "圖片不存在，請重新上傳",
    en: "The image was not found; please upload it again",
  },
  "catalog.imageInvalid": {
    cn: "仅支持JPG、PNG、WebP或GIF图片，且不超过5MB",
    tw: "僅支持JPG、PNG、WebP或GIF圖片，且不超過5MB",
    en: "Only JPG, PNG, WebP or GIF images up to 5 MB are accepted",
  },
  "catalog.hasStock": {
    cn: "该商品仍有{{count}}张库存卡密，请先作废库存再操作",
    tw: "該商品仍有{{count}}張庫存卡密，請先作廢庫存再操作",
    en: "This goods still has {{count}} card secrets in stock; void the stock first",
  },
  "catalog.hasOpenOrders": {
    cn: "该商品有未完成的订单，暂不能操作",
    tw: "該商品有未完成的訂單，暫不能操作",
    en: "This goods has open orders and cannot be changed now",
  },
  "catalog.stockFieldsLocked": {
    cn: "商品有库存时不能修改面值或业务类型",
    tw: "商品有庫存時不能修改面值或業務類型",
    en: "The face value and business type cannot change while the goods has stock",
  },
  "catalog.goodsVoid": {
    cn: "商品已作废，不能再修改",
    tw: "商品已作廢，不能再修改",
    en: "This goods is void and can no longer be changed",
  },
  "catalog.stateChange": {
    cn: "商品状态不能从{{from}}变为{{to}}",
    tw: "商品狀態不能從{{from}}變為{{to}}",
    en: "The goods state cannot change from {{from}} to {{to}}",
  },
  "catalog.comboOnly": {
    cn: "只有组合类商品可以添加子商品",
    tw: "只有組合類商品可以添加子商品",
    en: "Only combo goods can have child items",
  },
  "catalog.childInvalid": {
    cn: "子商品须为本商户的其他非组合商品",
    tw: "子商品須為本商戶的其他非組合商品",
    en: "A child item must be another non-combo goods of your own",
  },
  // card secrets
  "supply.notCardGoods": {
    cn: "只有卡密类商品可以导入卡密",
    tw: "只有卡密類商品可以導入卡密",
    en: "Card secrets can be imported only for card-secret goods",
  },
  "supply.fileType": {
    cn: "请上传xlsx或csv文件",
    tw: "請上傳xlsx或csv文件",
    en: "Please upload an xlsx or csv file",
  },
  "supply.importInterrupted": {
    cn: "导入中断（服务器在导入时停止）：已读取 {{totalRows}} 行，导入 {{imported}} 条，拒绝 {{rejected}} 条。请重新上传同一文件继续：已导入的卡密会作为重复跳过，只导入其余部分",
    tw: "導入中斷（服務器在導入時停止）：已讀取 {{totalRows}} 行，導入 {{imported}} 條，拒絕 {{rejected}} 條。請重新上傳同一文件繼續：已導入的卡密會作為重複跳過，只導入其餘部分",
    en: "The import was interrupted (the server stopped during it) after {{totalRows}} rows: {{imported}} imported, {{rejected}} rejected. Upload the same file again to finish: the codes already stored are skipped as duplicates and only the rest is imported",
  },
  "supply.fileEmpty": { cn: "文件中没有卡密数据", tw: "文件中沒有卡密數據", en: "The file contains no card secrets" },
  "supply.fileHeader": {
    cn: "文件表头不正确，请使用下载的模板",
    tw: "文件表頭不正確，請使用下載的模板",
    en: "The file's header row is wrong; please use the downloaded template",
  },
  "supply.fileUnreadable": {
    cn: "文件无法读取，请检查文件格式",
    tw: "文件無法讀取，請檢查文件格式",
    en: "The file cannot be read; please check its format",
  },
  // A card import's xlsx refused before it is parsed (supply/import/rows.ts XLSX_IMPORT_LIMITS).
  "supply.fileTooLarge": {
    cn: "文件解压后超过640MB（共享字符串超过160MB）或压缩比异常，无法导入；请拆分为多个文件分批导入",
    tw: "檔案解壓後超過640MB（共用字串超過160MB）或壓縮比異常，無法匯入；請拆分為多個檔案分批匯入",
    en: "The file unpacks to more than 640 MB (or its shared strings to more than 160 MB) or is compressed abnormally, so it cannot be imported; please split it into smaller files",
  },
  "supply.outOfStock": { cn: "库存不足", tw: "庫存不足", en: "Insufficient stock" },
  "supply.goodsNotAvailable": { cn: "商品不可售", tw: "商品不可售", en: "This goods is not available" },
  "supply.cardNotAvailable": {
    cn: "只有未售出的卡密可以作废",
    tw: "只有未售出的卡密可以作廢",
    en: "Only unsold card secrets can be voided",
  },
  "supply.lowStockSubject": { cn: "库存不足提醒：{{name}}", tw: "庫存不足提醒：{{name}}", en: "Low stock: {{name}}" },
  "supply.lowStockBody": {
    cn: "商品「{{name}}」（ID {{id}}）可用库存为{{stock}}，已低于预警值{{threshold}}，请及时补充卡密。",
    tw: "商品「{{name}}」（ID {{id}}）可用庫存為{{stock}}，已低於預警值{{threshold}}，請及時補充卡密。",
    en: 'Goods "{{name}}" (ID {{id}}) has {{stock}} codes left, below its threshold of {{threshold}}. Please import more card secrets.',
  },
  // reject reasons of a card import (row-by-row report)
  "supply.reject.numberMissing": { cn: "卡号为空", tw: "卡號為空", en: "Card number is missing" },
  "supply.reject.numberMalformed": {
    cn: "卡号格式错误（1-64位字母、数字或-）",
    tw: "卡號格式錯誤（1-64位字母、數字或-）",
    en: "Card number is malformed (1-64 letters, digits or -)",
  },
  "supply.reject.secretMissing": { cn: "卡密为空", tw: "卡密為空", en: "Card secret is missing" },
  "supply.reject.secretMalformed": {
    cn: "卡密格式错误（1-128位可见字符，不含空格）",
    tw: "卡密格式錯誤（1-128位可見字符，不含空格）",
    en: "Card secret is malformed (1-128 visible characters, no spaces)",
  },
  "supply.reject.expiryMalformed": {
    cn: "有效期格式错误（YYYY-MM-DD）",
    tw: "有效期格式錯誤（YYYY-MM-DD）",
    en: "Expiry date is malformed (YYYY-MM-DD)",
  },
  "supply.reject.expiryPast": { cn: "卡密已过期", tw: "卡密已過期", en: "Expiry date is in the past" },
  "supply.reject.exampleRow": {
    cn: "模板中的示例卡密，不能导入",
    tw: "模板中的示例卡密，不能匯入",
    en: "The template's example code cannot be imported",
  },
  "supply.reject.duplicateInFile": {
    cn: "文件内重复的卡号",
    tw: "文件內重複的卡號",
    en: "Duplicate card number within the file",
  },
  "supply.reject.duplicateStored": {
    cn: "该卡号已导入过此商品",
    tw: "該卡號已導入過此商品",
    en: "This card number is already stored for the goods",
  },
} as const;
