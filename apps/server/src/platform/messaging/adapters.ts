import nodemailer from "nodemailer";
import type { Config } from "../../config";
import type { Db } from "../../db/tx";
import { recordOutbox } from "./outbox.repo";

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
export interface SmsMessage {
  to: string;
  text: string;
}

/** Sends mail. `local` keeps it in the dev outbox (attachments too); `smtp` delivers through an SMTP server. */
export interface Mailer {
  readonly kind: "local" | "smtp";
  send(message: MailMessage): Promise<void>;
}
/** Sends SMS. Only the local adapter exists: no SMS gateway is reachable from here. */
export interface SmsSender {
  readonly kind: "local";
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

export function createSmsSender(db: Db, log: (line: string) => void): SmsSender {
  return {
    kind: "local",
    send: async (m) => {
      await recordOutbox(db, { channel: "sms", recipient: m.to, subject: "", body: m.text });
      log(`[sms:local] to=${m.to}`);
    },
  };
}
