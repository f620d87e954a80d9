import { z } from "zod";
import { IM_CHAT_TYPES } from "./constants";

/**
 * A message as JSON: the "payload" of the REST message format (conversation lastMessage, thread
 * last_message, pinned messages). The server stores every message in this form; the gateway and the
 * history API encode it to the protocol's MessageBody when the client needs protobuf.
 */

const size = z.object({ width: z.number(), height: z.number() });

export const imTextBody = z.object({
  type: z.literal("txt"),
  msg: z.string(),
  /** "sub_combine" and "sub_stream" variants of a text body. */
  subType: z.string().optional(),
});
export const imImageBody = z.object({
  type: z.literal("img"),
  url: z.string(),
  secret: z.string().optional(),
  filename: z.string().optional(),
  file_length: z.number().optional(),
  size: size.optional(),
  subType: z.string().optional(),
});
export const imVideoBody = z.object({
  type: z.literal("video"),
  url: z.string(),
  secret: z.string().optional(),
  filename: z.string().optional(),
  file_length: z.number().optional(),
  length: z.number().optional(),
  thumb: z.string().optional(),
  thumb_secret: z.string().optional(),
});
export const imAudioBody = z.object({
  type: z.literal("audio"),
  url: z.string(),
  secret: z.string().optional(),
  filename: z.string().optional(),
  file_length: z.number().optional(),
  length: z.number().optional(),
});
export const imFileBody = z.object({
  type: z.literal("file"),
  url: z.string(),
  secret: z.string().optional(),
  filename: z.string().optional(),
  file_length: z.number().optional(),
});
export const imLocationBody = z.object({
  type: z.literal("loc"),
  addr: z.string().optional(),
  buildingName: z.string().optional(),
  lat: z.number(),
  lng: z.number(),
});
export const imCmdBody = z.object({ type: z.literal("cmd"), action: z.string() });
export const imCustomBody = z.object({
  type: z.literal("custom"),
  customEvent: z.string().optional(),
  /** An array of one-key objects, merged by the client into one object. */
  customExts: z.array(z.record(z.string(), z.unknown())).optional(),
});
export const imCombineBody = z.object({
  type: z.literal("combine"),
  title: z.string().optional(),
  summary: z.string().optional(),
  url: z.string().optional(),
  secret: z.string().optional(),
  filename: z.string().optional(),
  file_length: z.number().optional(),
  combineLevel: z.number().int().optional(),
  /** The compatible text shown by clients that cannot show combined messages. */
  msg: z.string().optional(),
});

export const imMessageBody = z.discriminatedUnion("type", [
  imTextBody,
  imImageBody,
  imVideoBody,
  imAudioBody,
  imFileBody,
  imLocationBody,
  imCmdBody,
  imCustomBody,
  imCombineBody,
]);
export type ImMessageBody = z.infer<typeof imMessageBody>;

export const imMessagePayload = z.object({
  type: z.enum(IM_CHAT_TYPES),
  from: z.string(),
  to: z.string(),
  bodies: z.array(imMessageBody).min(1).max(1),
  /** Application extension values: must be an object (the client reads ext.file_type). */
  ext: z.record(z.string(), z.unknown()).default({}),
  msgConfig: z.object({ allowGroupAck: z.boolean().optional() }).optional(),
  /** Server-side extras the client reads: thread, reaction, translations, edit_msg. */
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type ImMessagePayload = z.infer<typeof imMessagePayload>;

/** The REST message object: `payload` is the JSON text of an ImMessagePayload. */
export interface ImRestMessage {
  id: string;
  timestamp: number;
  to: string;
  payload: string;
}
