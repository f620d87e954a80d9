import { MessageOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import type { PurchaseOrder } from "@tessera/contracts";
import { versionOfPath } from "../api/area";
import { fetchOrderChat } from "./api";
import { createChatStorage } from "./storage";

/**
 * "Contact the supplier" (purchaser) or "contact the purchaser" (supplier) on an order row: fetches the
 * order's conversation record, keeps it as `orderChat`, and opens the chat page of the same area. Small
 * on purpose: the chat itself (and the IM SDK) loads only on the chat page.
 */
export function OrderChatButton({ order, side }: { order: PurchaseOrder; side: "purchaser" | "supplier" }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    const res = await fetchOrderChat(order.id);
    setBusy(false);
    if (!res?.ok) return;
    createChatStorage(window.localStorage, versionOfPath(pathname)).setOrderChat(res.data);
    await navigate(`${pathname.replace(/[^/]+$/, "BrandChat")}?orderId=${encodeURIComponent(order.id)}`);
  };
  return (
    <Button
      type="link"
      size="small"
      icon={<MessageOutlined />}
      loading={busy}
      onClick={() => void open()}
      data-testid={`chat-${order.orderNo}`}
    >
      {t(side === "purchaser" ? "chat.contactSupplier" : "chat.contactPurchaser")}
    </Button>
  );
}
