import nodemailer from "nodemailer";
import type { Config } from "../../config";
import type { Db } from "../../db/tx";
import { recordOutbox } from "./outbox.repo";
import { createAliyunSms } from "./sms/aliyun";
import type { SmsMessage } from "./sms/kinds";
import { createTencentSms } from "./sms/tencent";
import { localSmsSender } from "./sms-local/sender";

export type { SmsKind, SmsMessage, SmsParams } from "./sms/kinds";

/** A file sent with a mail (e.g. an invoice's PDF). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  attachments?: readonly MailAttachment[];
}

/** Sends mail. `local` keeps it in the dev outbox (attachments too); `smtp` delivers through an SMTP server. */
export interface Mailer {
  readonly kind: "local" | "smtp";
  send(message: MailMessage): Promise<void>;
}
/**
 * Sends SMS (issue 41). `local` keeps `text` in the dev outbox; `aliyun` and `tencent` send the kind's
 * template with its params through the vendor's SDK, to the vendor or (sandbox) to the local SMS gateway. A send
 * that fails throws the user's AppError (sms.sendFailed, sms.tooFrequent) after a log line; the caller undoes
 * what the message was for.
 */
export interface SmsSender {
  readonly kind: "local" | "aliyun" | "tencent";
  send(message: SmsMessage): Promise<void>;
}

export function createMailer(config: Config, db: Db, log: (line: string) => void): Mailer {
  if (config.mailAdapter === "smtp") {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: "smtp",
      send: async (m) => {
        await transport.sendMail({
          from: config.mailFrom,
          to: m.to,
          subject: m.subject,
          text: m.text,
          ...(m.attachments?.length && {
            attachments: m.attachments.map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              content: a.content,
            })),
          }),
        });
      },
    };
  }
  return {
    kind: "local",
    send: async (m) => {
      await recordOutbox(db, {
        channel: "email",
        recipient: m.to,
        subject: m.subject,
        body: m.text,
        attachments: m.attachments ?? [],
      });
      log(
        `[mail:local] to=${m.to} subject="${m.subject}"${m.attachments?.length ? ` attachments=${m.attachments.map((a) => a.filename).join(",")}` : ""}`,
      );
    },
  };
}

export function createSmsSender(config: Config, db: Db, log: (line: string) => void): SmsSender {
  const { sms } = config;
  if (sms.adapter !== "local") {
    if (sms.localGateway) return localSmsSender(config, db, log);
    const vendor =
      sms.adapter === "aliyun"
        ? createAliyunSms({ ...sms.aliyun, signName: sms.signName, templates: sms.templates }, log)
        : createTencentSms({ ...sms.tencent, signName: sms.signName, templates: sms.templates }, log);
    return {
      kind: vendor.kind,
      send: async (m) => {
        await vendor.send(m);
      },
    };
  }
  return {
    kind: "local",
    send: async (m) => {
      await recordOutbox(db, { channel: "sms", recipient: m.to, subject: "", body: m.text });
      log(`[sms:local] to=${m.to}`);
    },
  };
}
