import { IM_LIMITS } from "@tessera/contracts";
import type { ImMessageBody } from "@tessera/contracts";
import type { ImFiles } from "../service/files";
import { REASON, refuse } from "./reasons";
import { STATUS } from "./frames";

/**
 * Combined messages (spec 03 §5): 1 to 300 messages, at most 10 levels. The level travels in the body;
 * the messages are in the uploaded file (easemob-wire §4.3: "cm", then a 4-byte big-endian length and
 * a Meta per message, then one checksum byte), which the server reads when it holds the file itself.
 */

/** Messages in a combine file, or null when the bytes are not one. */
export function countCombined(bytes: Uint8Array): number | null {
  if (bytes.length < 3 || bytes[0] !== 0x63 || bytes[1] !== 0x6d) return null;
  const end = bytes.length - 1;
  let at = 2;
  let n = 0;
  while (at < end) {
    if (at + 4 > end) return null;
    const len =
      ((bytes[at] ?? 0) << 24) | ((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
    at += 4 + len;
    if (len < 0 || at > end) return null;
    n++;
  }
  return n;
}

/** The chat file a URL of this server names (`.../chatfiles/<uuid>`), if it does. */
const OWN_FILE = /\/chatfiles\/([0-9a-f-]{36})(?:[?#]|$)/;

export async function checkCombine(files: ImFiles, body: Extract<ImMessageBody, { type: "combine" }>): Promise<void> {
  if ((body.combineLevel ?? 1) > IM_LIMITS.combineMaxLevel) throw refuse(REASON.combineLevel, STATUS.WRONG_PARAMETER);
  const uuid = OWN_FILE.exec(body.url ?? "")?.[1];
  if (!uuid) return;
  let bytes: Buffer;
  try {
    const opened = await files.download(uuid, { secret: body.secret, thumbnail: false });
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    bytes = Buffer.concat(chunks);
  } catch {
    // A file the sender cannot read (wrong secret, gone) is refused like a failed upload.
    throw refuse(REASON.combineUpload, STATUS.WRONG_PARAMETER);
  }
  const n = countCombined(bytes);
  if (n === null || n < 1) throw refuse(REASON.combineUpload, STATUS.WRONG_PARAMETER);
  if (n > IM_LIMITS.combineMaxMessages) throw refuse(REASON.combineCount, STATUS.WRONG_PARAMETER);
}
