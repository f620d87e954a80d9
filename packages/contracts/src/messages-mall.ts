/**
 * Messages of the customer mall and the merchant's mall back-office (issue 30 part B), in the three
 * languages. Merged into MESSAGES by messages.ts.
 */
export const MALL_MESSAGES = {
  "mall.priceInvalid": { cn: "请输入正确的售价", tw: "請輸入正確的售價", en: "Please enter a correct selling price" },
  "mall.nameEmpty": { cn: "请输入名称", tw: "請輸入名稱", en: "Please enter a name" },
  "mall.nameTooLong": {
    cn: "名称不能超过60个字符",
    tw: "名稱不能超過60個字符",
    en: "The name cannot exceed 60 characters",
  },
  "mall.textTooLong": { cn: "内容过长", tw: "內容過長", en: "The text is too long" },
  "mall.quantityInvalid": { cn: "请输入正确的数量", tw: "請輸入正確的數量", en: "Please enter a correct quantity" },
  "mall.stockInvalid": { cn: "请输入正确的库存", tw: "請輸入正確的庫存", en: "Please enter a correct stock" },
  "mall.validDaysInvalid": {
    cn: "请输入正确的有效天数（1-3650）",
    tw: "請輸入正確的有效天數（1-3650）",
    en: "Please enter correct validity days (1-3650)",
  },
  "mall.bagItemsEmpty": {
    cn: "请为礼包选择1-10件权益商品",
    tw: "請為禮包選擇1-10件權益商品",
    en: "Please put 1-10 goods in the gift pack",
  },
  "mall.privateCodeInvalid": {
    cn: "专属码为4-16位字母或数字",
    tw: "專屬碼為4-16位字母或數字",
    en: "The private code is 4-16 letters or digits",
  },
  "mall.privateCodeWrong": { cn: "专属码不正确", tw: "專屬碼不正確", en: "The private code is not correct" },
  "mall.smsPackageUnknown": { cn: "请选择短信套餐", tw: "請選擇短信套餐", en: "Please choose an SMS package" },
  "mall.smsExhausted": {
    cn: "商城短信条数已用完，请联系商家",
    tw: "商城短信條數已用完，請聯繫商家",
    en: "This mall has no SMS left; please contact the merchant",
  },
  "mall.refundReasonEmpty": { cn: "请输入退款原因", tw: "請輸入退款原因", en: "Please enter the refund reason" },
  "mall.cartEmpty": { cn: "购物车是空的", tw: "購物車是空的", en: "The cart is empty" },
  "mall.payMethodInvalid": { cn: "请选择支付方式", tw: "請選擇支付方式", en: "Please choose how to pay" },
  "mall.topUpAccountInvalid": {
    cn: "充值账号不能超过64个字符",
    tw: "充值賬號不能超過64個字符",
    en: "The top-up account cannot exceed 64 characters",
  },
  "mall.topUpAccountEmpty": { cn: "请输入充值账号", tw: "請輸入充值賬號", en: "Please enter the account to top up" },
  "mall.unknown": {
    cn: "商城不存在或未发布",
    tw: "商城不存在或未發佈",
    en: "This mall does not exist or is not published",
  },
  "mall.priceFarAbove": {
    cn: "售价 {{price}} 远高于该商品的面值/成本 {{reference}}，请确认价格无误后再保存",
    tw: "售價 {{price}} 遠高於該商品的面值/成本 {{reference}}，請確認價格無誤後再保存",
    en: "The price {{price}} is far above the goods' face value or cost of {{reference}}: confirm it to save",
  },
  "mall.testersOnly": {
    cn: "该商城尚未发布，仅商家指定的体验成员可以访问",
    tw: "該商城尚未發佈，僅商家指定的體驗成員可以訪問",
    en: "This mall is not released yet: only the merchant's testers may open it",
  },
  "mall.headersMissing": {
    cn: "请求缺少商城参数（v、appId、sellerId）",
    tw: "請求缺少商城參數（v、appId、sellerId）",
    en: "The request lacks the mall parameters (v, app id, seller id)",
  },
  "mall.goodsNotFound": { cn: "商品不存在", tw: "商品不存在", en: "This goods does not exist" },
  "mall.goodsNotBuyable": {
    cn: "该商品不在您的采购范围内",
    tw: "該商品不在您的採購範圍內",
    en: "You may not buy this goods from its supplier",
  },
  "mall.alreadyInMall": { cn: "该商品已在商城中", tw: "該商品已在商城中", en: "This goods is in the mall already" },
  "mall.goodsOffSale": { cn: "商品已下架", tw: "商品已下架", en: "This goods is off sale" },
  "mall.bagNotFound": { cn: "礼包不存在", tw: "禮包不存在", en: "This gift pack does not exist" },
  "mall.bagSoldOut": {
    cn: "礼包「{{name}}」库存不足",
    tw: "禮包「{{name}}」庫存不足",
    en: 'Gift pack "{{name}}" is sold out',
  },
  "mall.currencyMismatch": { cn: "商品币种不一致", tw: "商品幣種不一致", en: "The goods are in different currencies" },
  "mall.cardRequired": { cn: "请选择支付的卡", tw: "請選擇支付的卡", en: "Please choose the card to pay with" },
  "mall.cardNotUsable": {
    cn: "该卡不能在本商城使用",
    tw: "該卡不能在本商城使用",
    en: "This card cannot be used in this mall",
  },
  "mall.orderNotFound": { cn: "订单不存在", tw: "訂單不存在", en: "This order does not exist" },
  "mall.orderState": {
    cn: "订单当前状态不能进行此操作",
    tw: "訂單當前狀態不能進行此操作",
    en: "The order's state does not allow this",
  },
  "mall.cardPaidRefund": {
    cn: "卡支付的订单请在一卡通退卡处理",
    tw: "卡支付的訂單請在一卡通退卡處理",
    en: "An order paid by card is refunded through the card's return",
  },
  "mall.codeRedeemed": {
    cn: "订单中的券码已核销，不能退款",
    tw: "訂單中的券碼已核銷，不能退款",
    en: "A code of this order has already been redeemed, so it cannot be refunded",
  },
  "mall.refundShort": {
    cn: "收入账户余额不足，无法退款",
    tw: "收入賬戶餘額不足，無法退款",
    en: "The income account's balance does not cover this refund",
  },
  "mall.tradingComponent": {
    cn: "小程序交易组件未开通",
    tw: "小程序交易組件未開通",
    en: "The mini-program trading component is not opened",
  },
  "mall.soldOut": {
    cn: "商品库存不足，请稍后再试",
    tw: "商品庫存不足，請稍後再試",
    en: "Not enough stock; please try again later",
  },
  "mall.deliveryFailed": {
    cn: "供货失败，款项已退回",
    tw: "供貨失敗，款項已退回",
    en: "Supply failed; the payment was returned",
  },
} as const;
