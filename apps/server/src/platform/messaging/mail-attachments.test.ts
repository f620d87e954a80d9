import { createServer, type Server } from "node:net";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { loadConfig } from "../../config";
import { createMailer } from "./adapters";
import { listOutbox, outboxAttachments } from "./outbox.repo";

/** Issue 29: a mail carries attachments, kept whole by the local adapter and sent by the SMTP one. */
const t = useTestApp();

const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(3000, 7)]);

/** A minimal SMTP server that accepts one conversation and hands over the DATA it received. */
function fakeSmtp(): Promise<{ server: Server; port: number; message: Promise<string> }> {
  let deliver: (data: string) => void = () => undefined;
  const message = new Promise<string>((resolve) => (deliver = resolve));
  const server = createServer((socket) => {
    let buffer = "";
    let inData = false;
    socket.write("220 fake ESMTP\r\n");
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          deliver(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write("250 queued\r\n");
          continue;
        }
        const nl = buffer.indexOf("\r\n");
        if (nl < 0) return;
        const line = buffer.slice(0, nl).toUpperCase();
        buffer = buffer.slice(nl + 2);
        if (line.startsWith("EHLO") || line.startsWith("HELO")) socket.write("250 fake\r\n");
        else if (line.startsWith("DATA")) {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (line.startsWith("QUIT")) {
          socket.end("221 bye\r\n");
          return;
        } else socket.write("250 ok\r\n");
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : 0, message });
    });
  });
}

describe("mail attachments", () => {
  it("the local adapter keeps the attachments and lists their names and sizes in the outbox", async () => {
    await t.ctx.mailer.send({
      to: "files@example.com",
      subject: "With a file",
      text: "See the file.",
      attachments: [{ filename: "invoice-1.pdf", contentType: "application/pdf", content: pdf }],
    });
    await t.ctx.mailer.send({ to: "files@example.com", subject: "Without", text: "No file." });
    const { rows } = await listOutbox(t.ctx.database.db, { to: "files@example.com", page: 1, pageSize: 10 });
    const [plain, withFile] = rows;
    expect(withFile?.body).toBe("See the file.\n\n📎 invoice-1.pdf (application/pdf, 3,009 bytes)");
    expect(plain?.body).toBe("No file.");
    const kept = await outboxAttachments(t.ctx.database.db, Number(withFile?.id));
    expect(kept.map((a) => [a.filename, a.contentType, a.size])).toEqual([["invoice-1.pdf", "application/pdf", 3009]]);
    expect(Buffer.compare(kept[0]?.content ?? Buffer.alloc(0), pdf)).toBe(0);
    expect(await outboxAttachments(t.ctx.database.db, Number(plain?.id))).toEqual([]);
  });

  it("the SMTP adapter sends them as MIME attachments", async () => {
    const smtp = await fakeSmtp();
    try {
      const config = loadConfig({
        DATA_DIR: "/tmp",
        MAIL_ADAPTER: "smtp",
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        LOG_LEVEL: "silent",
      });
      const mailer = createMailer(config, t.ctx.database.db, () => undefined);
      expect(mailer.kind).toBe("smtp");
      await mailer.send({
        to: "files@example.com",
        subject: "Invoice",
        text: "Attached.",
        attachments: [{ filename: "invoice-1.pdf", contentType: "application/pdf", content: pdf }],
      });
      const raw = (await smtp.message).replace(/\r\n/g, "\n");
      expect(raw).toMatch(/Content-Type: application\/pdf; name=invoice-1\.pdf/);
      expect(raw).toMatch(/Content-Disposition: attachment; filename=invoice-1\.pdf/);
      const body =
        raw
          .split(/Content-Disposition: attachment; filename=invoice-1\.pdf\n\n/)[1]
          ?.split("\n----")[0]
          ?.replace(/\n/g, "") ?? "";
      expect(Buffer.compare(Buffer.from(body, "base64"), pdf)).toBe(0);
    } finally {
      smtp.server.close();
    }
  });
});
