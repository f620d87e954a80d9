import type { ChatSdkError } from "./errors.js";
import type { ChatMessage, ChatType, ModifiedInfo } from "./message.js";

/** A receipt, recall or channel ack as delivered to the app. */
export interface AckEvent {
  id: string;
  type?: "read" | "delivery" | "channel" | "recall";
  from: string;
  to: string;
  mid?: string;
  chatType?: ChatType;
  time?: number;
  ext?: unknown;
  groupReadCount?: unknown;
  ackContent?: string;
  onlineState?: number;
}

/** A group or chat-room event (`onGroupEvent`, `onChatroomEvent`): `operation` names what happened. */
export interface MucEvent {
  operation: string;
  id: string;
  from: string;
  userId?: string;
  name?: string;
  reason?: string;
  memberCount?: number;
  members?: string[];
  muteTimestamp?: number;
  attributes?: unknown;
  detail?: Record<string, unknown>;
  ext?: string;
  announcement?: string;
  [k: string]: unknown;
}

export interface ContactEvent {
  type: "subscribe" | "subscribed" | "unsubscribed";
  from: string;
  to: string;
  status?: string;
}

export interface PresenceEvent {
  userId: string;
  lastTime: number;
  expire: number;
  ext: string;
  statusDetails: { device: string; status: number }[];
}

/** The events of a connection and their payloads, named as the published client names them. */
export interface ConnectionEvents {
  onConnected: void;
  onDisconnected: ChatSdkError | undefined;
  onReconnecting: void;
  onError: ChatSdkError;
  onTokenWillExpire: void;
  onTokenExpired: void;
  onOnline: void;
  onOffline: void;
  /** Connection status changes: 400 init … 406 error (spec 03 §4). */
  onConnectionStatusChange: number;
  onTextMessage: ChatMessage;
  onImageMessage: ChatMessage;
  onAudioMessage: ChatMessage;
  onVideoMessage: ChatMessage;
  onFileMessage: ChatMessage;
  onLocationMessage: ChatMessage;
  onCmdMessage: ChatMessage;
  onCustomMessage: ChatMessage;
  onCombineMessage: ChatMessage;
  /** Every batch of received messages except cmd ones. */
  onMessage: ChatMessage[];
  onReceivedMessage: { id: string; mid: string; to: string };
  onDeliveredMessage: AckEvent;
  onReadMessage: AckEvent;
  onChannelMessage: AckEvent;
  onRecallMessage: AckEvent;
  onModifiedMessage: ChatMessage & { modifiedInfo?: ModifiedInfo };
  onContactInvited: ContactEvent;
  onContactAgreed: ContactEvent;
  onContactRefuse: ContactEvent;
  onContactDeleted: ContactEvent;
  onContactAdded: ContactEvent;
  onGroupEvent: MucEvent;
  onChatroomEvent: MucEvent;
  onPresenceStatusChange: PresenceEvent[];
  onReactionChange: Record<string, unknown>;
  onChatThreadChange: Record<string, unknown>;
  onMultiDeviceEvent: Record<string, unknown>;
  onMessagePinEvent: Record<string, unknown>;
  onOfflineMessageSyncStart: void;
  onOfflineMessageSyncFinish: void;
  onStatisticMessage: Record<string, unknown>;
}

export type EventName = keyof ConnectionEvents;
export type EventHandlers = {
  [K in EventName]?: ConnectionEvents[K] extends void ? () => void : (payload: ConnectionEvents[K]) => void;
};

/** Named handler sets (`addEventHandler(id, handlers)`), dispatched in registration order. */
export class EventRegistry {
  private readonly sets = new Map<string, EventHandlers>();

  add(id: string, handlers: EventHandlers): void {
    this.sets.set(id, handlers);
  }

  remove(id: string): void {
    this.sets.delete(id);
  }

  clear(): void {
    this.sets.clear();
  }

  dispatch<K extends EventName>(
    name: K,
    ...payload: ConnectionEvents[K] extends void ? [] : [ConnectionEvents[K]]
  ): void {
    for (const set of this.sets.values()) {
      const fn = set[name] as ((p?: unknown) => void) | undefined;
      if (typeof fn !== "function") continue;
      try {
        fn(payload[0]);
      } catch {
        // An app handler that throws must not break the connection.
      }
    }
  }
}
