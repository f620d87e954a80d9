import { describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { addSubAccount, multipart, pngImage } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();

type Letter = { id: string; version: number; fileName: string; contentType: string; uploadedBy: string; url: string };
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

async function uploadLetter(token: string, data: Buffer, name: string, type: string, lang?: "cn" | "en") {
  const mp = multipart(data, name, type);
  return t.call<Letter[]>("POST", "/api/card-user/commitLetters", {
    token,
    body: mp.body,
    headers: mp.headers,
    ...(lang && { lang }),
  });
}

describe("commitment letters", () => {
  it("keeps every upload as a version, newest first, and serves them to their merchant only", async () => {
    const m = await registerMerchant(t);
    expect((await t.call<Letter[]>("GET", "/api/card-user/commitLetters", { token: m.token })).body.data).toEqual([]);
    await uploadLetter(m.token, PDF, "承诺函.pdf", "application/pdf");
    const second = await uploadLetter(m.token, await pngImage(), "letter-photo.png", "image/png");
    expect(second.body.data.map((l) => [l.version, l.fileName, l.contentType])).toEqual([
      [2, "letter-photo.png", "image/png"],
      [1, "承诺函.pdf", "application/pdf"],
    ]);
    expect(second.body.data[0]?.uploadedBy).toBe(m.email);

    const pdfUrl = second.body.data[1]?.url ?? "";
    const file = await t.app.inject({ method: "GET", url: pdfUrl, headers: { "x-auth-token": m.token } });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.rawPayload.equals(PDF)).toBe(true);

    const other = await registerMerchant(t);
    expect((await t.call("GET", pdfUrl, { token: other.token })).status).toBe(404);
    expect((await t.call<Letter[]>("GET", "/api/card-user/commitLetters", { token: other.token })).body.data).toEqual(
      [],
    );
  });

  it("refuses other files in three languages, and sub-accounts without the page", async () => {
    const m = await registerMerchant(t);
    const expected = {
      cn: "请上传不超过5MB的PDF或图片（JPG、PNG、WebP）",
      en: "Please upload a PDF or an image (JPG, PNG, WebP) of at most 5 MB",
    };
    for (const lang of ["cn", "en"] as const) {
      const res = await uploadLetter(
        m.token,
        Buffer.from("MZ not a letter"),
        "x.exe",
        "application/octet-stream",
        lang,
      );
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(expected[lang]);
    }
    expect((await t.call<Letter[]>("GET", "/api/card-user/commitLetters", { token: m.token })).body.data).toEqual([]);
    const sub = await addSubAccount(t, m.token, ["sale/ApiSecurity"]);
    expect((await uploadLetter(sub.token, PDF, "a.pdf", "application/pdf")).status).toBe(403);
  });
});
