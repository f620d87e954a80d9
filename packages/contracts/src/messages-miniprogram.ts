/**
 * Messages of mini-program storefronts (issue 30 part A): the mall config's required fields (spec 01 §5),
 * the flow's refusals, and the social platforms' error codes (WeChat third-party platform, Douyin) mapped
 * to readable text, in the three languages. Merged into MESSAGES by messages.ts.
 */
export const MINIPROGRAM_MESSAGES = {
  "mp.nameEmpty": { cn: "请输入小程序名称", tw: "請輸入小程式名稱", en: "Please enter the mini-program name" },
  "mp.menuNameEmpty": { cn: "请输入菜单名称", tw: "請輸入選單名稱", en: "Please enter the menu name" },
  "mp.menuTargetInvalid": {
    cn: "菜单链接只能是商城的页面（首页、权益商品、礼包、购物车、订单）或以https://开头的链接",
    tw: "選單鏈接只能是商城的頁面（首頁、權益商品、禮包、購物車、訂單）或以https://開頭的鏈接",
    en: "A menu opens a page of the mall (home, goods, gift packs, cart, orders) or an https:// link",
  },
  "mp.configIdEmpty": { cn: "请输入配置ID", tw: "請輸入配置ID", en: "Please enter the config ID" },
  "mp.configIdFormat": {
    cn: "配置ID只能包含字母、数字、-和_",
    tw: "配置ID只能包含字母、數字、-和_",
    en: "The config ID may contain only letters, digits, - and _",
  },
  "mp.categoryEmpty": { cn: "请选择类目", tw: "請選擇類目", en: "Please choose a category" },
  "mp.descEmpty": { cn: "请输入功能描述", tw: "請輸入功能描述", en: "Please enter the function description" },
  "mp.textTooLong": { cn: "内容过长", tw: "內容過長", en: "The text is too long" },
  "mp.platformInvalid": {
    cn: "平台只能是微信或抖音",
    tw: "平台只能是微信或抖音",
    en: "The platform must be WeChat or Douyin",
  },
  "mp.themeInvalid": { cn: "颜色主题只能是1-4", tw: "顏色主題只能是1-4", en: "The colour theme must be 1 to 4" },
  "mp.tooManyMenus": {
    cn: "菜单数量超出上限（导航最多10个，底部最多5个）",
    tw: "選單數量超出上限（導航最多10個，底部最多5個）",
    en: "Too many menus (at most 10 navigation and 5 bottom menus)",
  },
  "mp.domainInvalid": { cn: "请输入正确的域名", tw: "請輸入正確的網域", en: "Please enter a correct domain" },
  "mp.validityInvalid": {
    cn: "有效天数须为1-3650的整数",
    tw: "有效天數須為1-3650的整數",
    en: "Validity days must be a whole number from 1 to 3650",
  },
  "mp.authCodeInvalid": { cn: "授权码无效", tw: "授權碼無效", en: "The authorisation code is invalid" },
  "mp.paramKeyInvalid": {
    cn: "参数键须以字母开头，只含字母、数字和_",
    tw: "參數鍵須以字母開頭，只含字母、數字和_",
    en: "A parameter key starts with a letter and has only letters, digits and _",
  },
  "mp.paramLabelEmpty": { cn: "请输入参数名称", tw: "請輸入參數名稱", en: "Please enter the parameter label" },
  "mp.templateNameEmpty": { cn: "请输入模板名称", tw: "請輸入模板名稱", en: "Please enter the template name" },
  "mp.userVersionInvalid": {
    cn: "版本号格式为x.y.z",
    tw: "版本號格式為x.y.z",
    en: "The version number has the form x.y.z",
  },
  "mp.tooManyCategories": { cn: "最多选择5个类目", tw: "最多選擇5個類目", en: "Choose at most 5 categories" },
  "mp.hostInvalid": { cn: "宿主应用无效", tw: "宿主應用無效", en: "Unknown host app" },
  "mp.hostRequired": {
    cn: "请选择至少一个宿主应用",
    tw: "請選擇至少一個宿主應用",
    en: "Please choose at least one host app",
  },
  "mp.reasonEmpty": { cn: "请填写驳回原因", tw: "請填寫駁回原因", en: "Please enter the rejection reason" },
  "mp.screenshotInvalid": {
    cn: "截图须为1MB以内的PNG或JPEG图片",
    tw: "截圖須為1MB以內的PNG或JPEG圖片",
    en: "A screenshot must be a PNG or JPEG image of at most 1 MB",
  },
  "mp.configNotFound": {
    cn: "小程序配置不存在",
    tw: "小程式配置不存在",
    en: "This mini-program config does not exist",
  },
  "mp.configCodeTaken": { cn: "该配置ID已被使用", tw: "該配置ID已被使用", en: "This config ID is already in use" },
  "mp.platformMismatch": {
    cn: "该配置不属于此平台",
    tw: "該配置不屬於此平台",
    en: "This config belongs to another platform",
  },
  "mp.notAuthorized": { cn: "请先授权小程序", tw: "請先授權小程式", en: "Please authorise the mini-program first" },
  "mp.authRevoked": {
    cn: "小程序授权已取消，请重新授权",
    tw: "小程式授權已取消，請重新授權",
    en: "The mini-program's authorisation was withdrawn: please authorise it again",
  },
  "mp.appTaken": {
    cn: "该小程序已绑定其他配置",
    tw: "該小程式已綁定其他配置",
    en: "This mini-program is already bound to another config",
  },
  "mp.templateRequired": { cn: "请先选择模板", tw: "請先選擇模板", en: "Please choose a template first" },
  "mp.nothingChanged": {
    cn: "配置自上次上传后没有变化；如需重新上传请勾选强制上传",
    tw: "配置自上次上傳後沒有變化；如需重新上傳請勾選強制上傳",
    en: "Nothing changed since the last upload; tick force upload to upload again",
  },
  "mp.templateNotFound": { cn: "模板不存在", tw: "模板不存在", en: "This template does not exist" },
  "mp.templateLimit": {
    cn: "模板库最多200个模板",
    tw: "模板庫最多200個模板",
    en: "The template library holds at most 200 templates",
  },
  "mp.templateInUse": {
    cn: "模板正在被配置使用，不能删除",
    tw: "模板正在被配置使用，不能刪除",
    en: "Configs use this template: it cannot be deleted",
  },
  "mp.auditNotFound": { cn: "审核单不存在", tw: "審核單不存在", en: "This audit does not exist" },
  "mp.auditNotPending": { cn: "该审核已处理", tw: "該審核已處理", en: "This audit was already decided" },
  "mp.officialNotBound": { cn: "请先绑定公众号", tw: "請先綁定公眾號", en: "Please bind an official account first" },
  "mp.accountTypeWrong": {
    cn: "授权的账号类型不符，请重新授权",
    tw: "授權的帳號類型不符，請重新授權",
    en: "The authorised account is of another type: please authorise again",
  },
  "mp.accountTaken": {
    cn: "该账号已被其他商户绑定",
    tw: "該帳號已被其他商戶綁定",
    en: "This account is already bound by another merchant",
  },
  "mp.appOwnedElsewhere": {
    cn: "该账号已由其他商户授权，只能由其所属商户重新授权，本次授权未做任何更改",
    tw: "該帳號已由其他商戶授權，只能由其所屬商戶重新授權，本次授權未做任何更改",
    en: "This account is authorised by another merchant: only that merchant can authorise it again, and nothing was changed",
  },
  "mp.accountNotFound": { cn: "没有已绑定的账号", tw: "沒有已綁定的帳號", en: "No account is bound" },
  "mp.officialNoMall": {
    cn: "请先发布小程序商城",
    tw: "請先發布小程式商城",
    en: "Please publish a mini-program mall first",
  },
  "mp.openIdEmpty": { cn: "请输入接收者OpenID", tw: "請輸入接收者OpenID", en: "Please enter the recipient's OpenID" },
  "mp.brandNotServed": {
    cn: "只能为服务中的品牌授权",
    tw: "只能為服務中的品牌授權",
    en: "You can only authorise brands you serve",
  },
  "mp.err.48001": {
    cn: "该账号未授权此接口（48001）",
    tw: "該帳號未授權此介面（48001）",
    en: "The account has not authorised this API (48001)",
  },
  "mp.err.40016": {
    cn: "菜单按钮数量不正确，最多3个（40016）",
    tw: "選單按鈕數量不正確，最多3個（40016）",
    en: "A menu holds 1 to 3 buttons (40016)",
  },
  "mp.err.40018": {
    cn: "菜单名称过长（40018）",
    tw: "選單名稱過長（40018）",
    en: "A menu button's name is too long (40018)",
  },
  "mp.err.40055": {
    cn: "菜单链接无效（40055）",
    tw: "選單連結無效（40055）",
    en: "A menu button's link is invalid (40055)",
  },
  "mp.err.40037": {
    cn: "模板消息ID无效（40037）",
    tw: "模板訊息ID無效（40037）",
    en: "The message template id is invalid (40037)",
  },
  "mp.err.40003": {
    cn: "接收者OpenID无效（40003）",
    tw: "接收者OpenID無效（40003）",
    en: "The recipient's OpenID is invalid (40003)",
  },
  "mp.preauthExpired": {
    cn: "授权链接已过期或已使用，请重新发起授权",
    tw: "授權連結已過期或已使用，請重新發起授權",
    en: "The authorisation link expired or was used: please start the authorisation again",
  },
  "mp.noBetaVersion": {
    cn: "请先上传代码生成体验版",
    tw: "請先上傳代碼生成體驗版",
    en: "Upload the code first to get an experience version",
  },
  "mp.err.85014": {
    cn: "模板不存在（85014）",
    tw: "模板不存在（85014）",
    en: "The template does not exist on the platform (85014)",
  },
  "mp.err.85013": {
    cn: "自定义配置ext_json无效（85013）",
    tw: "自訂配置ext_json無效（85013）",
    en: "The ext config is invalid (85013)",
  },
  "mp.err.85012": { cn: "审核单ID无效（85012）", tw: "審核單ID無效（85012）", en: "The audit id is invalid (85012)" },
  "mp.err.61039": {
    cn: "代码隐私检测尚未完成，请稍后再提交审核（61039）",
    tw: "代碼隱私檢測尚未完成，請稍後再提交審核（61039）",
    en: "The platform is still scanning the uploaded code: submit again in a moment (61039)",
  },
  "mp.err.87013": {
    cn: "撤回审核次数已达上限（每天5次，每月10次）（87013）",
    tw: "撤回審核次數已達上限（每天5次，每月10次）（87013）",
    en: "Withdrawal limit reached: 5 a day, 10 a month (87013)",
  },
  "mp.err.85009": {
    cn: "已有版本正在审核中，请勿重复提交（85009）",
    tw: "已有版本正在審核中，請勿重複提交（85009）",
    en: "A version is already under review: it cannot be submitted twice (85009)",
  },
  "mp.err.85086": {
    cn: "提交审核前请先上传代码（85086）",
    tw: "提交審核前請先上傳代碼（85086）",
    en: "Upload the code before submitting it for review (85086)",
  },
  "mp.err.85085": {
    cn: "本月提审次数已用完，请下月再试（85085）",
    tw: "本月提審次數已用完，請下月再試（85085）",
    en: "The review quota of this month is used up: try again next month (85085)",
  },
  "mp.err.85020": {
    cn: "审核未通过，不能发布（85020）",
    tw: "審核未通過，不能發佈（85020）",
    en: "The version has not passed review: it cannot be released (85020)",
  },
  "mp.err.85019": {
    cn: "没有审核中的版本（85019）",
    tw: "沒有審核中的版本（85019）",
    en: "No version is under review (85019)",
  },
  "mp.err.87012": {
    cn: "没有可回退的版本（87012）",
    tw: "沒有可回退的版本（87012）",
    en: "There is no previous version to roll back to (87012)",
  },
  "mp.err.42001": {
    cn: "平台访问令牌已过期（42001）",
    tw: "平台存取權杖已過期（42001）",
    en: "The platform access token expired (42001)",
  },
  "mp.err.40001": {
    cn: "平台访问令牌无效（40001）",
    tw: "平台存取權杖無效（40001）",
    en: "The platform access token is invalid (40001)",
  },
  "mp.err.61003": {
    cn: "小程序未授权给本平台（61003）",
    tw: "小程式未授權給本平台（61003）",
    en: "The mini-program is not authorised to this platform (61003)",
  },
  "mp.err.61010": {
    cn: "授权码已过期（61010）",
    tw: "授權碼已過期（61010）",
    en: "The authorisation code expired (61010)",
  },
  "mp.err.11404": {
    cn: "版本未审核通过，不能发布（11404）",
    tw: "版本未審核通過，不能發佈（11404）",
    en: "The version has not passed review: it cannot be released (11404)",
  },
  "mp.err.11501": {
    cn: "每次发布只能回退一次，请10分钟后再试（11501）",
    tw: "每次發佈只能回退一次，請10分鐘後再試（11501）",
    en: "A release can be rolled back only once: try again in 10 minutes (11501)",
  },
  "mp.err.unknown": {
    cn: "平台返回错误（{{errcode}}）",
    tw: "平台返回錯誤（{{errcode}}）",
    en: "The platform refused the call ({{errcode}})",
  },
} as const;
