/** Messages of the developer portal's callback tester, in the three languages. Merged by messages.ts. */
export const DEVELOPER_MESSAGES = {
  "developer.noCallbackUrl": {
    cn: "请先在API安全页面设置回调地址",
    tw: "請先在API安全頁面設置回調地址",
    en: "Please set your callback URL on the API security page first",
  },
} as const;
