import { Alert, Flex, Result, Spin, Tag, Typography } from "antd";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";
import type { ChatMessageReply, OrderChat, UserInfo } from "@tessera/contracts";
import { versionOfPath } from "../api/area";
import { useUserInfo } from "../api/common";
import { fetchChatMessage, fetchOrderChat, fetchUserInfo, recordOpening } from "./api";
import { ChatWindow } from "./ChatWindow";
import { MessageText } from "./MessageText";
import { createBrandConnection } from "./sdk";
import { ChatSession } from "./session";
import { createChatStorage } from "./storage";
import { formatTime } from "../ui/time";

type Side = "brand" | "purchaser";

/** Who this page chats as: the brand (b<merchantId>) in the business area, the staff member elsewhere. */
function identityOf(info: UserInfo, side: Side): { user: string; token: string } | null {
  const b = info.brandInfo;
  if (!b) return null;
  return side === "brand" ? { user: `b${b.branderId}`, token: b.branderImToken } : { user: b.imUser, token: b.imToken };
}

/** The order the conversation is about, and the message that opened it. */
function OrderBanner({ chat, opening }: { chat: OrderChat; opening: ChatMessageReply | null }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="info"
      showIcon
      style={{ margin: 8 }}
      data-testid="chat-order"
      message={
        <Flex gap={8} wrap align="center">
          <span>{t("chat.order", { orderNo: chat.orderNo })}</span>
          <Tag>{chat.goodsName}</Tag>
          <Typography.Text type="secondary">
            {t("chat.since", { time: formatTime(chat.startTime) })}
            {chat.endTime !== null && ` · ${t("chat.ended", { time: formatTime(chat.endTime) })}`}
          </Typography.Text>
        </Flex>
      }
      description={
        opening && opening.body?.type === "txt" && !opening.recalled ? (
          <Typography.Text type="secondary">
            {t("chat.opening")}: <MessageText text={opening.body.msg} />
          </Typography.Text>
        ) : undefined
      }
    />
  );
}

/**
 * The brand chat page (`/sale/BrandChat`, `/business/BrandChat` and the international ones): logs in to
 * the IM service with the chat token of the stored user info and opens the order's conversation when
 * `?orderId=` names one. Loaded lazily: the IM SDK is in this page's chunk only.
 */
export default function ChatPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const version = versionOfPath(pathname);
  const side: Side = /\/business\//.test(pathname) ? "brand" : "purchaser";
  const storage = useMemo(() => createChatStorage(window.localStorage, version), [version]);
  const { data: info } = useUserInfo();
  const identity = info ? identityOf(info, side) : null;
  const orderId = params.get("orderId");
  const [chat, setChat] = useState<OrderChat | null>(() => {
    const stored = storage.orderChat();
    return stored && stored.orderId === orderId ? stored : null;
  });
  const [opening, setOpening] = useState<ChatMessageReply | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const user = identity?.user ?? null;
  const session = useMemo(() => {
    if (!user || !info?.brandInfo) return null;
    const appKey = info.brandInfo.appKey;
    return new ChatSession(createBrandConnection(appKey), storage, user, async () => {
      const fresh = await fetchUserInfo();
      const next = fresh?.ok ? identityOf(fresh.data, side) : null;
      if (!next) throw new Error("no chat token");
      return next.token;
    });
    // One session per chat identity; the token is read when logging in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user, storage, side]);

  useEffect(() => {
    if (!session) return;
    session.start().catch((e: unknown) => setFailed(String((e as { message?: string })?.message ?? e)));
    return () => session.close();
  }, [session]);

  // The order's conversation record (kept as orderChat), and its opening message.
  useEffect(() => {
    if (!orderId) return;
    let live = true;
    void fetchOrderChat(orderId).then((res) => {
      if (!live || !res?.ok) return;
      storage.setOrderChat(res.data);
      setChat(res.data);
    });
    return () => {
      live = false;
    };
  }, [orderId, storage]);
  useEffect(() => {
    if (!chat?.messageId) return;
    let live = true;
    void fetchChatMessage(chat.messageId).then((res) => {
      if (live && res?.ok) setOpening(res.data);
    });
    return () => {
      live = false;
    };
  }, [chat?.messageId]);

  // The purchaser's first message in the order's conversation is recorded as its opening message.
  const snap = useSyncExternalStore(session?.store.subscribe ?? noSubscribe, session?.store.getSnapshot ?? noSnapshot);
  useEffect(() => {
    if (!chat || chat.side !== "purchaser" || chat.messageId || !snap) return;
    const first = snap.threads[chat.targetId]?.items.find(
      (i) => i.from === chat.self && i.state === "sent" && /^\d+$/.test(i.id) && i.time >= chat.startTime,
    );
    if (!first) return;
    void recordOpening(chat.orderId, first.id).then((res) => {
      if (res?.ok) {
        storage.setOrderChat(res.data);
        setChat(res.data);
      }
    });
  }, [chat, snap, storage]);

  // Counterparts are shown by their nicknames (company names), looked up once per new peer.
  const [nicknames, setNicknames] = useState<Record<string, string>>({});
  const peers = (snap?.conversations ?? []).map((c) => c.peer).filter((p) => !(p in nicknames));
  const missing = [...new Set(peers)].sort().join(",");
  useEffect(() => {
    if (!session || missing === "") return;
    let live = true;
    const wanted = missing.split(",");
    void session
      .nicknames(wanted)
      .then(
        (found) =>
          live && setNicknames((prev) => ({ ...Object.fromEntries(wanted.map((w) => [w, w])), ...prev, ...found })),
      )
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [session, missing]);

  if (info && !info.brandInfo) return <Result status="warning" title={t("chat.unavailable")} />;
  if (failed) return <Result status="error" title={t("chat.loginFailed")} subTitle={failed} />;
  if (!session) return <Spin />;
  const names: Record<string, string> = {
    ...nicknames,
    ...(chat ? { [chat.targetId]: chat.targetName || nicknames[chat.targetId] || chat.targetId } : {}),
  };
  return (
    <ChatWindow
      session={session}
      initialPeer={orderId ? (chat?.targetId ?? null) : null}
      names={names}
      banner={(peer) => (chat && peer === chat.targetId ? <OrderBanner chat={chat} opening={opening} /> : undefined)}
    />
  );
}

const noSubscribe = () => () => undefined;
const noSnapshot = () => null;
