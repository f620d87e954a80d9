/**
 * Messages of merchant onboarding (profile, real-name, API credentials, sub-accounts) and the operator
 * console, in the three languages. Merged into MESSAGES by messages.ts.
 */
export const ONBOARDING_MESSAGES = {
  // profile
  "profile.companyNameEmpty": { cn: "公司名称不能为空", tw: "公司名稱不能為空", en: "Company name cannot be empty" },
  "profile.companyNameLength": {
    cn: "公司名称不能超过100个字符",
    tw: "公司名稱不能超過100個字符",
    en: "Company name cannot exceed 100 characters",
  },
  "profile.legalRepresentativeInvalid": {
    cn: "法定代表人姓名须为2-30个字母或汉字",
    tw: "法定代表人姓名須為2-30個字母或漢字",
    en: "The legal representative's name must be 2-30 letters or Chinese characters",
  },
  "profile.contactNameInvalid": {
    cn: "联系人姓名须为2-30个字母或汉字",
    tw: "聯繫人姓名須為2-30個字母或漢字",
    en: "The contact's name must be 2-30 letters or Chinese characters",
  },
  "profile.addressLength": {
    cn: "地址不能超过200个字符",
    tw: "地址不能超過200個字符",
    en: "Address cannot exceed 200 characters",
  },
  "profile.industryInvalid": { cn: "请选择所属行业", tw: "請選擇所屬行業", en: "Please choose an industry" },
  "profile.imageInvalid": {
    cn: "请上传不超过5MB的JPG、PNG、WebP或GIF图片",
    tw: "請上傳不超過5MB的JPG、PNG、WebP或GIF圖片",
    en: "Please upload a JPG, PNG, WebP or GIF image of at most 5 MB",
  },

  // real-name verification (spec 01 §5 helper validators)
  "realName.documentMissing": {
    cn: "请先上传营业执照及法人身份证正反面",
    tw: "請先上傳營業執照及法人身份證正反面",
    en: "Please upload the business licence and both sides of the legal representative's ID first",
  },
  "realName.idNumberInvalid": {
    cn: "请输入正确的身份证号（15或18位）",
    tw: "請輸入正確的身份證號（15或18位）",
    en: "Please enter a correct national ID number (15 or 18 digits)",
  },
  "realName.intlIdNumberInvalid": {
    cn: "请输入正确的护照或身份证件号码（5-20位字母或数字）",
    tw: "請輸入正確的護照或身份證件號碼（5-20位字母或數字）",
    en: "Please enter a correct passport or identity card number (5-20 letters or digits)",
  },
  "realName.personNameInvalid": {
    cn: "姓名须为2-30个字母或汉字",
    tw: "姓名須為2-30個字母或漢字",
    en: "The name must be 2-30 letters or Chinese characters",
  },
  "realName.licenseNumberInvalid": {
    cn: "请输入正确的统一社会信用代码或注册号（5-30位字母或数字）",
    tw: "請輸入正確的統一社會信用代碼或註冊號（5-30位字母或數字）",
    en: "Please enter a correct licence or registration number (5-30 letters or digits)",
  },
  "realName.validUntilInvalid": {
    cn: "有效期须为今天之后的日期（YYYY-MM-DD），长期有效可不填",
    tw: "有效期須為今天之後的日期（YYYY-MM-DD），長期有效可不填",
    en: "The validity date must be after today (YYYY-MM-DD); leave it empty when permanent",
  },
  "realName.pendingExists": {
    cn: "已有实名认证正在审核中，请耐心等待",
    tw: "已有實名認證正在審核中，請耐心等待",
    en: "A real-name verification is already under review",
  },
  "realName.expiredNotice": {
    cn: "实名认证已过期，请重新提交",
    tw: "實名認證已過期，請重新提交",
    en: "The real-name verification has expired, please submit it again",
  },

  // reviews (operator console)
  "review.notPending": {
    cn: "该申请已处理，请刷新",
    tw: "該申請已處理，請刷新",
    en: "This request has already been handled; please refresh",
  },
  "review.reasonEmpty": { cn: "请填写驳回原因", tw: "請填寫駁回原因", en: "Please enter the reason for rejection" },
  "review.reasonLength": {
    cn: "原因不能超过500个字符",
    tw: "原因不能超過500個字符",
    en: "The reason cannot exceed 500 characters",
  },

  // API security
  "api.notOpened": { cn: "API权限未开通", tw: "API權限未開通", en: "API permission is not opened" },
  "api.alreadyOpened": { cn: "API权限已开通", tw: "API權限已開通", en: "API permission is already opened" },
  "api.requestPending": {
    cn: "API权限申请正在审核中",
    tw: "API權限申請正在審核中",
    en: "The API permission request is under review",
  },
  "api.realNameRequired": {
    cn: "请先完成实名认证再申请API权限",
    tw: "請先完成實名認證再申請API權限",
    en: "Complete real-name verification before requesting API permission",
  },
  "api.ipInvalid": {
    cn: "IP白名单格式错误：{{ip}}（每行一个IPv4或IPv6地址，最多20个）",
    tw: "IP白名單格式錯誤：{{ip}}（每行一個IPv4或IPv6地址，最多20個）",
    en: "Invalid IP allowlist entry: {{ip}} (one IPv4 or IPv6 address per line, at most 20)",
  },
  "api.callbackInvalid": {
    cn: "回调地址须为http或https地址，不超过500个字符",
    tw: "回調地址須為http或https地址，不超過500個字符",
    en: "The callback URL must be an http or https address of at most 500 characters",
  },
  "api.passwordWrong": { cn: "登录密码错误", tw: "登錄密碼錯誤", en: "The login password is wrong" },
  "api.viewProofRequired": {
    cn: "请输入登录密码或短信验证码",
    tw: "請輸入登錄密碼或簡訊驗證碼",
    en: "Enter your login password or the SMS code",
  },

  // agreements
  "agreement.consentRequired": {
    cn: "请阅读并勾选同意协议",
    tw: "請閱讀並勾選同意協議",
    en: "Please read the agreement and tick to agree",
  },
  "agreement.versionOutdated": {
    cn: "协议已更新，请阅读最新版本后再签署",
    tw: "協議已更新，請閱讀最新版本後再簽署",
    en: "The agreement has been updated; please read the current version before signing",
  },
  "agreement.alreadySigned": {
    cn: "已签署当前版本的协议",
    tw: "已簽署當前版本的協議",
    en: "The current version is already signed",
  },

  // service-provider binding
  "service.providerNotFound": {
    cn: "未找到该服务商，请核对服务商ID",
    tw: "未找到該服務商，請核對服務商ID",
    en: "No service provider has this ID",
  },
  "service.alreadyBound": {
    cn: "已绑定服务商，如需更换请先解绑",
    tw: "已綁定服務商，如需更換請先解綁",
    en: "A service provider is already bound; remove it first to change",
  },
  "service.kindInvalid": {
    cn: "请选择绑定类型（品牌或商户）",
    tw: "請選擇綁定類型（品牌或商戶）",
    en: "Choose what you bind the provider as: brand or merchant",
  },
  "service.notBrand": {
    cn: "该商户以商户身份绑定，不能进入其品牌后台",
    tw: "該商戶以商戶身份綁定，不能進入其品牌後台",
    en: "This merchant bound you as a merchant, not as a brand: its brand context cannot be entered",
  },
  "service.self": {
    cn: "不能绑定自己为服务商",
    tw: "不能綁定自己為服務商",
    en: "You cannot bind yourself as your service provider",
  },

  "agreement.letterInvalid": {
    cn: "请上传不超过5MB的PDF或图片（JPG、PNG、WebP）",
    tw: "請上傳不超過5MB的PDF或圖片（JPG、PNG、WebP）",
    en: "Please upload a PDF or an image (JPG, PNG, WebP) of at most 5 MB",
  },

  // sub-accounts
  "sub.ownerOnly": {
    cn: "仅主账号可以管理子账号",
    tw: "僅主賬號可以管理子賬號",
    en: "Only the main account can manage sub-accounts",
  },
  "sub.menusEmpty": { cn: "请至少选择一个菜单", tw: "請至少選擇一個菜單", en: "Choose at least one menu" },
  "sub.menuInvalid": {
    cn: "不可分配的菜单：{{menu}}",
    tw: "不可分配的菜單：{{menu}}",
    en: "This menu cannot be given: {{menu}}",
  },
  "sub.nameInvalid": {
    cn: "子账号名称须为2-30个字符",
    tw: "子賬號名稱須為2-30個字符",
    en: "The sub-account name must be 2-30 characters",
  },
} as const;
