/** Messages of the order conversation (brand chat), in the three languages. */
export const ORDER_CHAT_MESSAGES = {
  "orderChat.orderEmpty": { cn: "请选择订单", tw: "請選擇訂單", en: "Please choose an order" },
  "orderChat.messageEmpty": { cn: "请指定消息", tw: "請指定消息", en: "Please name a message" },
  "orderChat.messageNotFound": { cn: "消息不存在", tw: "消息不存在", en: "This message does not exist" },
  "orderChat.noCounterpart": {
    cn: "该订单没有可联系的采购人员",
    tw: "該訂單沒有可聯繫的採購人員",
    en: "This order has no purchaser staff to contact",
  },
  "orderChat.onlyPurchaser": {
    cn: "只有采购方可以发起订单会话",
    tw: "只有採購方可以發起訂單會話",
    en: "Only the purchaser opens the order's conversation",
  },
} as const;
