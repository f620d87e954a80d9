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
  switch (err.key) {
    case "userNotFound":
      return { code: STATUS.FAIL, reason: `username ${String(p.username ?? "")} doesn't exist!` };
    case "groupNotFound":
      return { code: STATUS.FAIL, reason: REASON.groupNotFound };
    case "roomNotFound":
      return { code: STATUS.FAIL, reason: `grpID ${String(p.id ?? "")} does not exist!` };
    case "groupDisabled":
      return { code: STATUS.FAIL, reason: REASON.groupDisabled };
    case "notMember":
    case "groupNotJoined":
      return { code: STATUS.FAIL, reason: REASON.notJoined };
    case "messageNotFound":
      return { code: STATUS.FAIL, reason: REASON.editNotFound };
    case "invalidParameter":
      return { code: STATUS.WRONG_PARAMETER, reason: err.description };
    case "permissionDenied": {
      const why = String(p.reason ?? "");
      if (why.includes(" is muted in ")) return { code: STATUS.PERMISSION_DENIED, reason: REASON.userMuted };
      if (why.includes(" is banned")) return { code: STATUS.FAIL, reason: REASON.notInAllowlist };
      return { code: STATUS.FAIL, reason: REASON.blocked };
    }
    default:
      return { code: STATUS.FAIL, reason: err.description };
  }
}
