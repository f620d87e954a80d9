import {
  CheckOutlined,
  ExclamationCircleOutlined,
  FileOutlined,
  PaperClipOutlined,
  PictureOutlined,
  PushpinFilled,
  RedoOutlined,
  SmileOutlined,
  UndoOutlined,
} from "@ant-design/icons";
import {
  App,
  Avatar,
  Badge,
  Button,
  Empty,
  Flex,
  Image,
  Input,
  List,
  Popover,
  Progress,
  Space,
  Spin,
  Tag,
  theme,
  Typography,
} from "antd";
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { EMOJI } from "./emoji";
import { MessageText } from "./MessageText";
import type { ChatSession } from "./session";
import type { ChatItem, ConversationItem } from "./store";
import { formatTime } from "../ui/time";

/** How a file's address is opened: with its share secret when it has one (restricted chat files). */
export function fileHref(item: Pick<ChatItem, "url" | "secret">, thumb?: string): string {
  const base = thumb ?? item.url ?? "";
  if (!base || !item.secret) return base;
  return `${base}${base.includes("?") ? "&" : "?"}em-redirect=true&share-secret=${encodeURIComponent(item.secret)}`;
}

const sizeText = (n?: number): string =>
  n === undefined
    ? ""
    : n < 1024
      ? `${n} B`
      : n < 1024 * 1024
        ? `${(n / 1024).toFixed(1)} KB`
        : `${(n / 1024 / 1024).toFixed(1)} MB`;

function Preview({ item }: { item: ChatItem | null }) {
  const { t } = useTranslation();
  if (!item) return <>{t("chat.noMessages")}</>;
  if (item.type === "txt") return <>{item.text}</>;
  return <>{t(`chat.kind.${item.type}`)}</>;
}

function ConversationList({
  list,
  active,
  names,
  onOpen,
}: {
  list: ConversationItem[];
  active: string | null;
  names: Record<string, string>;
  onOpen: (peer: string) => void;
}) {
  const { token } = theme.useToken();
  const { t } = useTranslation();
  if (list.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("chat.noConversations")} />;
  return (
    <List
      dataSource={list}
      rowKey="peer"
      renderItem={(c) => (
        <List.Item
          onClick={() => onOpen(c.peer)}
          style={{
            cursor: "pointer",
            padding: "10px 12px",
            background: c.peer === active ? token.colorPrimaryBg : undefined,
          }}
          data-testid={`chat-conv-${c.peer}`}
        >
          <List.Item.Meta
            avatar={
              <Badge count={c.unread} size="small" data-testid={`chat-unread-${c.peer}`}>
                <Avatar>{(names[c.peer] ?? c.peer).slice(0, 1).toUpperCase()}</Avatar>
              </Badge>
            }
            title={
              <Flex justify="space-between" gap={4}>
                <Typography.Text ellipsis style={{ maxWidth: 150 }}>
                  {c.pinned && (
                    <PushpinFilled
                      style={{ color: token.colorPrimary, marginRight: 4 }}
                      aria-label={t("chat.pinned")}
                    />
                  )}
                  {names[c.peer] ?? c.peer}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {c.last ? formatTime(c.last.time).slice(5) : ""}
                </Typography.Text>
              </Flex>
            }
            description={
              <Typography.Text type="secondary" ellipsis style={{ maxWidth: 200, fontSize: 12 }}>
                <Preview item={c.last} />
              </Typography.Text>
            }
          />
        </List.Item>
      )}
    />
  );
}

function Bubble({
  item,
  mine,
  onRetry,
  onRecall,
}: {
  item: ChatItem;
  mine: boolean;
  onRetry: () => void;
  onRecall: () => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  let body: ReactNode;
  if (item.type === "txt") body = <MessageText text={item.text} />;
  else if (item.type === "img" && item.url) {
    body = (
      <Image
        src={fileHref(item, item.thumb)}
        preview={{ src: fileHref(item) }}
        alt={item.filename ?? ""}
        style={{ maxWidth: 220, maxHeight: 220 }}
        data-testid="chat-image"
      />
    );
  } else if (item.url) {
    body = (
      <a href={fileHref(item)} target="_blank" rel="noreferrer" data-testid="chat-file">
        <FileOutlined /> {item.filename ?? t(`chat.kind.${item.type}`)}{" "}
        <Typography.Text type="secondary">{sizeText(item.fileLength)}</Typography.Text>
      </a>
    );
  } else {
    body = (
      <span>
        {item.type === "img" ? <PictureOutlined /> : <FileOutlined />} {item.filename}
      </span>
    );
  }
  return (
    <Flex
      vertical
      align={mine ? "flex-end" : "flex-start"}
      style={{ margin: "6px 0" }}
      data-testid="chat-message"
      data-state={item.state}
      data-id={item.id}
      data-mine={mine ? "1" : "0"}
    >
      <Typography.Text type="secondary" style={{ fontSize: 11 }}>
        {formatTime(item.time, { seconds: true })}
      </Typography.Text>
      <div
        style={{
          maxWidth: "70%",
          padding: "8px 12px",
          borderRadius: 8,
          background: mine ? token.colorPrimaryBg : token.colorFillTertiary,
          border: `1px solid ${mine ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
        }}
      >
        {body}
        {item.progress !== undefined && item.state === "sending" && (
          <Progress percent={item.progress} size="small" data-testid="chat-progress" />
        )}
      </div>
      {mine && (
        <Space size={4} style={{ fontSize: 12 }}>
          {item.state === "sending" && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              <Spin size="small" /> {t("chat.state.sending")}
            </Typography.Text>
          )}
          {item.state === "failed" && (
            <>
              <Typography.Text type="danger" style={{ fontSize: 12 }}>
                <ExclamationCircleOutlined /> {t("chat.state.failed")}
              </Typography.Text>
              <Button size="small" type="link" icon={<RedoOutlined />} onClick={onRetry} data-testid="chat-retry">
                {t("chat.retry")}
              </Button>
            </>
          )}
          {item.state === "sent" && (
            <>
              <Typography.Text
                type={item.read ? "success" : "secondary"}
                style={{ fontSize: 12 }}
                data-testid="chat-receipt"
              >
                <CheckOutlined /> {t(item.read ? "chat.state.read" : "chat.state.unread")}
              </Typography.Text>
              <Button size="small" type="link" icon={<UndoOutlined />} onClick={onRecall} data-testid="chat-recall">
                {t("chat.recall")}
              </Button>
            </>
          )}
        </Space>
      )}
    </Flex>
  );
}

function Composer({
  onText,
  onFile,
  disabled,
}: {
  onText: (text: string) => void;
  onFile: (file: File, kind: "img" | "file") => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const image = useRef<HTMLInputElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const send = () => {
    const v = text.trim();
    if (!v) return;
    onText(v);
    setText("");
  };
  const pick = (kind: "img" | "file") => (e: React.ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = "";
    if (f) onFile(f, kind);
  };
  return (
    <Flex vertical gap={6} style={{ padding: 8 }}>
      <Space size={4}>
        <Popover
          trigger="click"
          content={
            <div
              style={{ display: "grid", gridTemplateColumns: "repeat(10, 28px)", gap: 2 }}
              data-testid="chat-emoji-panel"
            >
              {EMOJI.map((e) => (
                <Button key={e} type="text" size="small" onClick={() => setText((v) => v + e)} style={{ padding: 0 }}>
                  {e}
                </Button>
              ))}
            </div>
          }
        >
          <Button type="text" icon={<SmileOutlined />} aria-label={t("chat.emoji")} data-testid="chat-emoji" />
        </Popover>
        <Button
          type="text"
          icon={<PictureOutlined />}
          aria-label={t("chat.image")}
          onClick={() => image.current?.click()}
          disabled={disabled}
        />
        <Button
          type="text"
          icon={<PaperClipOutlined />}
          aria-label={t("chat.file")}
          onClick={() => file.current?.click()}
          disabled={disabled}
        />
        <input ref={image} type="file" accept="image/*" hidden onChange={pick("img")} data-testid="chat-image-input" />
        <input ref={file} type="file" hidden onChange={pick("file")} data-testid="chat-file-input" />
      </Space>
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        onPressEnter={(e) => {
          if (!e.shiftKey) {
            e.preventDefault();
            send();
          }
        }}
        autoSize={{ minRows: 2, maxRows: 5 }}
        maxLength={2000}
        placeholder={t("chat.placeholder")}
        data-testid="chat-input"
      />
      <Flex justify="flex-end">
        <Button type="primary" onClick={send} disabled={disabled || !text.trim()} data-testid="chat-send">
          {t("chat.send")}
        </Button>
      </Flex>
    </Flex>
  );
}

function MessagePane({
  session,
  peer,
  name,
  banner,
}: {
  session: ChatSession;
  peer: string;
  name: string;
  banner?: ReactNode;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const snap = useSyncExternalStore(session.store.subscribe, session.store.getSnapshot);
  const thread = snap.threads[peer] ?? { items: [], cursor: null, isLast: false, loading: false };
  const box = useRef<HTMLDivElement>(null);
  const prev = useRef({ first: "", last: "", height: 0 });

  // Keep the view where the reader is: at the bottom for new messages, in place when older ones load.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const first = thread.items[0]?.localId ?? "";
    const last = thread.items[thread.items.length - 1]?.localId ?? "";
    if (prev.current.first && first !== prev.current.first && last === prev.current.last) {
      el.scrollTop += el.scrollHeight - prev.current.height;
    } else if (last !== prev.current.last) el.scrollTop = el.scrollHeight;
    prev.current = { first, last, height: el.scrollHeight };
  }, [thread.items]);

  const onScroll = () => {
    const el = box.current;
    if (el && el.scrollTop < 40 && !thread.isLast && !thread.loading) void session.loadOlder(peer);
  };
  const recall = (item: ChatItem) =>
    modal.confirm({
      title: t("chat.recallConfirm"),
      okText: t("chat.recall"),
      onOk: () => session.recall(item).catch(() => void modal.error({ title: t("chat.recallFailed") })),
    });
  return (
    <Flex vertical style={{ flex: 1, minWidth: 0, height: "100%" }}>
      <Flex
        align="center"
        justify="space-between"
        style={{ padding: "8px 12px", borderBottom: "1px solid rgba(128,128,128,0.2)" }}
      >
        <Typography.Text strong data-testid="chat-peer">
          {name}
        </Typography.Text>
      </Flex>
      {banner}
      <div
        ref={box}
        onScroll={onScroll}
        style={{ flex: 1, overflowY: "auto", padding: "8px 12px" }}
        data-testid="chat-messages"
        data-count={thread.items.length}
        data-last={thread.isLast ? "1" : "0"}
      >
        {thread.loading && (
          <Flex justify="center">
            <Spin size="small" />
          </Flex>
        )}
        {thread.isLast && thread.items.length > 0 && (
          <Typography.Paragraph
            type="secondary"
            style={{ textAlign: "center", fontSize: 12 }}
            data-testid="chat-history-end"
          >
            {t("chat.historyEnd")}
          </Typography.Paragraph>
        )}
        {thread.items.map((item) => (
          <Bubble
            key={item.localId}
            item={item}
            mine={item.from === snap.me}
            onRetry={() => void session.retry(item)}
            onRecall={() => void recall(item)}
          />
        ))}
      </div>
      <Composer
        disabled={false}
        onText={(text) => void session.sendText(peer, text)}
        onFile={(f, kind) => void session.sendFile(peer, f, kind)}
      />
    </Flex>
  );
}

/**
 * The chat window (spec 03 §2 brand chat view): the conversation list with unread badges, pinned first
 * and the last message, beside the open conversation's messages (50 a page, older ones as the reader
 * scrolls up) and the composer.
 */
export function ChatWindow({
  session,
  initialPeer,
  names,
  banner,
}: {
  session: ChatSession;
  initialPeer: string | null;
  names: Record<string, string>;
  banner?: (peer: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const snap = useSyncExternalStore(session.store.subscribe, session.store.getSnapshot);
  useEffect(() => {
    if (initialPeer) void session.open(initialPeer);
  }, [session, initialPeer]);
  const active = snap.active;
  return (
    <Flex
      style={{
        height: "calc(100vh - 160px)",
        minHeight: 480,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: 8,
        overflow: "hidden",
        background: token.colorBgContainer,
      }}
      data-testid="chat-window"
    >
      <div
        style={{ width: 280, borderRight: `1px solid ${token.colorBorderSecondary}`, overflowY: "auto" }}
        data-testid="chat-conversations"
      >
        <Flex align="center" justify="space-between" style={{ padding: "8px 12px" }}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t("chat.conversations")}
          </Typography.Title>
          <Tag
            color={
              snap.status === "open"
                ? "success"
                : snap.status === "reconnecting" || snap.status === "connecting"
                  ? "processing"
                  : "error"
            }
            data-testid="chat-status"
            data-status={snap.status}
          >
            {t(`chat.status.${snap.status}`)}
          </Tag>
        </Flex>
        <ConversationList
          list={snap.conversations}
          active={active}
          names={names}
          onOpen={(peer) => void session.open(peer)}
        />
      </div>
      {active ? (
        <MessagePane
          key={active}
          session={session}
          peer={active}
          name={names[active] ?? active}
          banner={banner?.(active)}
        />
      ) : (
        <Flex flex={1} align="center" justify="center">
          <Empty description={t("chat.choose")} />
        </Flex>
      )}
    </Flex>
  );
}
