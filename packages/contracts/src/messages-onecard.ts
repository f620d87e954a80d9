/**
 * Messages of stored-value cards (one-card): card products and batches, sale, activation, returns,
 * gifts, the end customer's login and card bag (spec 01 §5, §8), in the three languages. Merged into
 * MESSAGES by messages.ts.
 */
export const ONECARD_MESSAGES = {
  "onecard.nameEmpty": { cn: "请输入卡种名称", tw: "請輸入卡種名稱", en: "Please enter the card product name" },
  "onecard.faceValueInvalid": {
    cn: "请输入正确的面值",
    tw: "請輸入正確的面值",
    en: "Please enter a correct face value",
  },
  "onecard.salePriceInvalid": {
    cn: "请输入正确的售价",
    tw: "請輸入正確的售價",
    en: "Please enter a correct sale price",
  },
  "onecard.discountPriceHigh": {
    cn: "折扣卡的售价须低于面值",
    tw: "折扣卡的售價須低於面值",
    en: "A discount card sells below its face value",
  },
  "onecard.faceValuePrice": {
    cn: "面值卡按面值销售",
    tw: "面值卡按面值銷售",
    en: "A face-value card sells at its face value",
  },
  "onecard.namedCap": {
    cn: "记名卡面值不得超过{{cap}}元",
    tw: "記名卡面值不得超過{{cap}}元",
    en: "A named card's face value cannot exceed {{cap}} yuan",
  },
  "onecard.bearerCap": {
    cn: "不记名卡面值不得超过{{cap}}元",
    tw: "不記名卡面值不得超過{{cap}}元",
    en: "A bearer card's face value cannot exceed {{cap}} yuan",
  },
  "onecard.validityInvalid": {
    cn: "请设置有效期（固定日期或激活后天数）",
    tw: "請設置有效期（固定日期或激活後天數）",
    en: "Please set the validity (a fixed date or days after activation)",
  },
  "onecard.bearerValidity": {
    cn: "不记名卡有效期不得少于3年",
    tw: "不記名卡有效期不得少於3年",
    en: "A bearer card must be valid for at least 3 years",
  },
  "onecard.productNotFound": { cn: "卡种不存在", tw: "卡種不存在", en: "This card product does not exist" },
  "onecard.productIssued": {
    cn: "该卡种已发卡，只能修改名称、售价、适用门店、条款和是否可充值权益",
    tw: "該卡種已發卡，只能修改名稱、售價、適用門店、條款和是否可充值權益",
    en: "Cards of this product have been issued: only its name, sale price, stores, terms and equity payment can change",
  },
  "onecard.productOff": { cn: "该卡种已停售", tw: "該卡種已停售", en: "This card product is not on sale" },
  "onecard.countInvalid": { cn: "数量须为1-100000", tw: "數量須為1-100000", en: "The quantity is 1-100,000" },
  "onecard.countZero": {
    cn: "制卡数量至少为1张，0张不会制卡",
    tw: "製卡數量至少為1張，0張不會製卡",
    en: "Make at least 1 card: 0 cards makes nothing",
  },
  "onecard.stockShort": {
    cn: "库存不足，可售{{left}}张",
    tw: "庫存不足，可售{{left}}張",
    en: "Not enough cards in stock: {{left}} left",
  },
  "onecard.realNameRequired": {
    cn: "单笔购卡满{{amount}}元须先完成实名认证",
    tw: "單筆購卡滿{{amount}}元須先完成實名認證",
    en: "Buying {{amount}} yuan or more at once needs real-name verification first",
  },
  "onecard.cardNoInvalid": { cn: "请输入正确的卡号", tw: "請輸入正確的卡號", en: "Please enter a correct card number" },
  "onecard.passwordEmpty": { cn: "请输入卡密码", tw: "請輸入卡密碼", en: "Please enter the card password" },
  "onecard.passwordFormat": {
    cn: "新密码须为8至32位字母和数字，且同时包含字母和数字",
    tw: "新密碼須為8至32位字母和數字，且同時包含字母和數字",
    en: "The new password must be 8 to 32 letters and digits, with at least one of each",
  },
  "onecard.cardUnknown": { cn: "卡号或密码错误", tw: "卡號或密碼錯誤", en: "Wrong card number or password" },
  "onecard.cardLocked": {
    cn: "密码错误次数过多，该卡已锁定，请{{minutes}}分钟后再试",
    tw: "密碼錯誤次數過多，該卡已鎖定，請{{minutes}}分鐘後再試",
    en: "Too many wrong passwords: the card is locked, try again in {{minutes}} minutes",
  },
  "onecard.clientThrottled": {
    cn: "查询过于频繁，请稍后再试",
    tw: "查詢過於頻繁，請稍後再試",
    en: "Too many attempts, please try again later",
  },
  "onecard.notActivated": { cn: "该卡未激活", tw: "該卡未激活", en: "This card is not activated" },
  "onecard.expired": { cn: "该卡已过期", tw: "該卡已過期", en: "This card has expired" },
  "onecard.frozen": { cn: "该卡已冻结", tw: "該卡已凍結", en: "This card is frozen" },
  "onecard.unusable": { cn: "该卡不可用", tw: "該卡不可用", en: "This card cannot be used" },
  "onecard.insufficient": { cn: "卡余额不足", tw: "卡餘額不足", en: "Insufficient card balance" },
  "onecard.refundExceeds": {
    cn: "退回金额超过该卡的支付金额",
    tw: "退回金額超過該卡的支付金額",
    en: "The refund exceeds what was paid with this card",
  },
  "onecard.notYours": {
    cn: "只能操作本商户购买的卡",
    tw: "只能操作本商戶購買的卡",
    en: "You can only handle cards your company bought",
  },
  "onecard.activateMixed": {
    cn: "所选卡中有不可激活的卡，全部未激活",
    tw: "所選卡中有不可激活的卡，全部未激活",
    en: "Some of these cards cannot be activated; none was activated",
  },
  "onecard.rangeInvalid": {
    cn: "起止卡号须属于同一批次",
    tw: "起止卡號須屬於同一批次",
    en: "The first and last card numbers must be of one batch",
  },
  "onecard.returnActivated": {
    cn: "已激活的卡不能退卡",
    tw: "已激活的卡不能退卡",
    en: "An activated card cannot be returned",
  },
  "onecard.selectCards": { cn: "请选择卡", tw: "請選擇卡", en: "Please choose cards" },
  "onecard.giftClaimed": { cn: "该礼品卡已被领取", tw: "該禮品卡已被領取", en: "This gift has already been claimed" },
  "onecard.giftExpired": { cn: "该礼品卡已过期", tw: "該禮品卡已過期", en: "This gift has expired" },
  "onecard.giftNotFound": { cn: "礼品不存在", tw: "禮品不存在", en: "This gift does not exist" },
  "onecard.alreadyInBag": { cn: "该卡已在卡包中", tw: "該卡已在卡包中", en: "This card is already in a card bag" },
  "onecard.noBoundPhone": {
    cn: "该卡未绑定手机，请先将卡放入卡包",
    tw: "該卡未綁定手機，請先將卡放入卡包",
    en: "This card has no bound phone: add it to a card bag first",
  },
  "onecard.rechargeNotAllowed": {
    cn: "该卡不支持充值权益",
    tw: "該卡不支持充值權益",
    en: "This card cannot pay for equities",
  },
  "onecard.packageNameEmpty": {
    cn: "请输入礼包名称（不超过40字）",
    tw: "請輸入禮包名稱（不超過40字）",
    en: "Please enter the package name (up to 40 characters)",
  },
  "onecard.packageItemsEmpty": {
    cn: "请为礼包选择1至10种卡",
    tw: "請為禮包選擇1至10種卡",
    en: "Please choose 1 to 10 card products for the package",
  },
  "onecard.packageNotFound": { cn: "礼包不存在", tw: "禮包不存在", en: "This gift package does not exist" },
  "onecard.packageShort": {
    cn: "已激活未赠送的“{{product}}”不足：需要{{need}}张，现有{{have}}张",
    tw: "已激活未贈送的「{{product}}」不足：需要{{need}}張，現有{{have}}張",
    en: 'Not enough activated cards of "{{product}}" to give: {{need}} needed, {{have}} available',
  },
  "onecard.recipientsEmpty": {
    cn: "请填写收礼手机号或链接数量",
    tw: "請填寫收禮手機號或鏈接數量",
    en: "Please enter recipients' mobile numbers or a number of links",
  },
  "onecard.phonesRepeated": { cn: "手机号重复", tw: "手機號重複", en: "A mobile number is repeated" },
  "onecard.equityUnknown": {
    cn: "请选择该卡可充值的权益",
    tw: "請選擇該卡可充值的權益",
    en: "Please choose an equity this card can pay for",
  },
  "onecard.equityUnavailable": {
    cn: "该权益暂不可充值，卡内余额已退回",
    tw: "該權益暫不可充值，卡內餘額已退回",
    en: "This equity cannot be recharged now; the card was paid back",
  },
  "onecard.accountEmpty": { cn: "请输入充值账号", tw: "請輸入充值賬號", en: "Please enter the account to top up" },
  "onecard.holdNotFound": { cn: "预授权不存在", tw: "預授權不存在", en: "This hold does not exist" },
  "onecard.holdDone": { cn: "该预授权已完成", tw: "該預授權已完成", en: "This hold has already been settled" },
  "onecard.loginExpired": { cn: "登录状态已过期", tw: "登錄狀態已過期", en: "Login state expired" },
  "onecard.phoneEmpty": { cn: "请输入手机号", tw: "請輸入手機號", en: "Please enter the mobile number" },
  "onecard.giftSms": {
    cn: "【一卡通】{{from}}送您{{count}}张礼品卡，点击领取：{{link}} （请用本手机号登录）",
    tw: "【一卡通】{{from}}送您{{count}}張禮品卡，點擊領取：{{link}} （請用本手機號登錄）",
    en: "[One-card] {{from}} sent you {{count}} gift card(s). Claim them here: {{link}} (log in with this number)",
  },
  "onecard.lockedSms": {
    cn: "【一卡通】您尾号{{last4}}的卡密码错误次数过多，已锁定{{minutes}}分钟。",
    tw: "【一卡通】您尾號{{last4}}的卡密碼錯誤次數過多，已鎖定{{minutes}}分鐘。",
    en: "[One-card] Your card ending {{last4}} was locked for {{minutes}} minutes after too many wrong passwords.",
  },
} as const;
