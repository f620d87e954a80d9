/**
 * Messages of the provider's BatchPurchase (issue 29) and of the platform's customer-service contact and
 * announcements (getQwContact, textMess), in the three languages. Merged into MESSAGES by messages.ts.
 */
export const PROVIDER_OPS_MESSAGES = {
  "batch.fileType": { cn: "请上传 .xlsx 格式的文件", tw: "請上傳 .xlsx 格式的文件", en: "Please upload an .xlsx file" },
  "batch.fileUnreadable": {
    cn: "文件无法读取，请使用下载的模板",
    tw: "文件無法讀取，請使用下載的模板",
    en: "The file cannot be read; please use the downloaded template",
  },
  "batch.headerMismatch": {
    cn: "表头与模板不一致，请使用下载的模板",
    tw: "表頭與模板不一致，請使用下載的模板",
    en: "The header row does not match the template; please use the downloaded template",
  },
  "batch.empty": { cn: "文件中没有采购行", tw: "文件中沒有採購行", en: "The file has no purchase lines" },
  "batch.tooManyLines": {
    cn: "一次最多导入{{max}}行",
    tw: "一次最多匯入{{max}}行",
    en: "At most {{max}} lines per file",
  },
  "batch.purchaserEmpty": {
    cn: "请填写采购商账号或商户ID",
    tw: "請填寫採購商賬號或商戶ID",
    en: "Please fill in the purchaser's account or merchant ID",
  },
  "batch.purchaserNotServed": {
    cn: "该采购商不是您服务的商户",
    tw: "該採購商不是您服務的商戶",
    en: "This purchaser is not a merchant you serve",
  },
  "batch.goodsUnknown": { cn: "商品不存在", tw: "商品不存在", en: "This goods does not exist" },
  "batch.requestKeyInvalid": {
    cn: "请求号须为6-64位字母、数字、-或_",
    tw: "請求號須為6-64位字母、數字、-或_",
    en: "The request key is 6-64 letters, digits, - or _",
  },
  "batch.requestKeyRepeated": {
    cn: "同一采购商的请求号在文件中重复",
    tw: "同一採購商的請求號在文件中重複",
    en: "This request key appears twice for the same purchaser in the file",
  },
  "batch.notFound": { cn: "批量采购记录不存在", tw: "批量採購記錄不存在", en: "This batch purchase does not exist" },
  "contact.nameEmpty": { cn: "请输入客服名称", tw: "請輸入客服名稱", en: "Please enter the contact's name" },
  "contact.qrInvalid": {
    cn: "请输入正确的二维码图片地址",
    tw: "請輸入正確的二維碼圖片地址",
    en: "Please enter a correct QR image URL",
  },
  "contact.phoneInvalid": {
    cn: "请输入正确的联系电话",
    tw: "請輸入正確的聯絡電話",
    en: "Please enter a correct phone number",
  },
  "announcement.titleEmpty": {
    cn: "请输入公告标题",
    tw: "請輸入公告標題",
    en: "Please enter the announcement's title",
  },
  "announcement.titleTooLong": {
    cn: "公告标题不能超过100个字符",
    tw: "公告標題不能超過100個字符",
    en: "The title is at most 100 characters",
  },
  "announcement.bodyEmpty": { cn: "请输入公告内容", tw: "請輸入公告內容", en: "Please enter the announcement's text" },
  "announcement.bodyTooLong": {
    cn: "公告内容不能超过5000个字符",
    tw: "公告內容不能超過5000個字符",
    en: "The text is at most 5000 characters",
  },
  "announcement.notFound": { cn: "公告不存在", tw: "公告不存在", en: "This announcement does not exist" },
} as const;
