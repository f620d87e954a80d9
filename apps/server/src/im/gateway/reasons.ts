import { ImError } from "../errors";
import { STATUS } from "./frames";

/**
 * Server reasons for refused sends, as the published client maps them to its error types
 * (easemob-wire §3g, spec 03 §8). The texts must stay exactly these.
 */
export const REASON = {
  blocked: "blocked",
  groupNotFound: "group not found",
  notJoined: "not in group or chatroom",
  recallTimeLimit: "exceed recall time limit",
  notInAllowlist: "not in group or chatroom white list",
  nonroster: "nonroster",
  groupDisabled: "group is disabled",
  directedLimit: "limit directed users",
  editLimit: "Sorry, edit limit reached",
  editNotFound: "Sorry, message does not exist",
  editDenied: "Sorry, You do not have permission",
  editFormat: "Sorry, format is incorrect",
  userMuted: "user is mute",
  tooLarge: "Sorry, data is too large",
  combineCount: "The number of combined messages exceeded the limit.",
  combineLevel: "The level of the merged message exceeded the limit.",
  combineUpload: "Failed to upload the merge message.Please try again",
} as const;

export interface Refusal {
  code: number;
  reason: string;
}

export class Refused extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export const refuse = (reason: string, code: number = STATUS.FAIL) => new Refused(code, reason);

/** A service error as the refusal the client understands; null for errors that are bugs. */
export function refusalOf(err: unknown): Refusal | null {
  if (err instanceof Refused) return { code: err.code, reason: err.reason };
  if (!(err instanceof ImError)) return null;
  const p = err.params;
  const key: string = err.key;
  const byKey: Record<string, Refusal> = {
    userNotFound: { code: STATUS.FAIL, reason: `username ${String(p.username ?? "")} doesn't exist!` },
    groupNotFound: { code: STATUS.FAIL, reason: REASON.groupNotFound },
    roomNotFound: { code: STATUS.FAIL, reason: `grpID ${String(p.id ?? "")} does not exist!` },
    groupDisabled: { code: STATUS.FAIL, reason: REASON.groupDisabled },
    notMember: { code: STATUS.FAIL, reason: REASON.notJoined },
    groupNotJoined: { code: STATUS.FAIL, reason: REASON.notJoined },
    messageNotFound: { code: STATUS.FAIL, reason: REASON.editNotFound },
    mucFull: { code: STATUS.FAIL, reason: "group member list is full!" },
    invalidParameter: { code: STATUS.WRONG_PARAMETER, reason: err.description },
  };
  const known = byKey[key];
  if (known) return known;
  if (key === "permissionDenied") {
    const why = String(p.reason ?? "");
    if (why.includes(" is muted in ")) return { code: STATUS.PERMISSION_DENIED, reason: REASON.userMuted };
    if (why.includes(" is banned")) return { code: STATUS.FAIL, reason: REASON.notInAllowlist };
    return { code: STATUS.FAIL, reason: REASON.blocked };
  }
  return { code: STATUS.FAIL, reason: err.description };
}
