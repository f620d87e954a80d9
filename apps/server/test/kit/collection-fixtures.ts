import type { ApplyRecord, Page, QueueItem } from "@tessera/contracts";
import type { TestApp } from "../harness";

/** Test helpers of the collection tests (not a test file itself). */

type M = { token: string; merchantId: string };
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

export const applyFields = {
  companyName: "Harbour Tea Ltd",
  creditCode: "91440300MA5EXAMPLE",
  legalPerson: "Chen Wei",
  legalIdNo: "44030019900101123X",
  contactName: "Li Na",
  contactPhone: "13800138000",
  industryCode: "716",
  bankName: "China Merchants Bank",
  bankAccount: "6214830000000001",
  bankAccountName: "Harbour Tea Ltd",
};

/** Uploads an application image (a PNG) for the merchant; its key. */
export async function uploadImage(t: TestApp, m: M, name = "licence.png"): Promise<string> {
  const boundary = "----tessera";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/card-brander/paymentApplyRecords/images",
    headers: { "x-auth-token": m.token, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return res.json<{ data: { key: string } }>().data.key;
}

/** A merchant through onboarding to FINISHED (licence and ID card images, approved, confirmed, signed). */
export async function onboarded(t: TestApp, m: M, op: { token: string }): Promise<void> {
  const body = {
    ...applyFields,
    licenceImage: await uploadImage(t, m),
    idCardFront: await uploadImage(t, m, "front.png"),
    idCardBack: await uploadImage(t, m, "back.png"),
  };
  const saved = await t.call("POST", "/api/card-brander/paymentApplyRecords", { token: m.token, body });
  if (saved.body.code !== 1) throw new Error(`save: ${saved.body.msg}`);
  const submitted = await t.call("POST", "/api/card-brander/paymentApplyRecords/submit", { token: m.token });
  if (submitted.body.code !== 1) throw new Error(`submit: ${submitted.body.msg}`);
  const items = await t.call<Page<QueueItem>>(
    "GET",
    `/api/ops/queues/paymentApply/items?state=pending&merchantId=${m.merchantId}`,
    { token: op.token },
  );
  await t.call("POST", `/api/ops/queues/paymentApply/items/${items.body.data.list[0]?.id}/approve`, {
    token: op.token,
  });
  const confirmed = await t.call<ApplyRecord>("POST", "/api/card-brander/paymentApplyRecords/confirm", {
    token: m.token,
  });
  await t.call("POST", `/api/pay-public/sign/${confirmed.body.data.signUrl?.split("/paySign/")[1] ?? ""}`);
  t.clock.advance(5);
  await t.call("POST", "/api/ops/collection/advance", { token: op.token });
  const done = await t.call<Page<ApplyRecord>>("GET", "/api/card-brander/paymentApplyRecords", { token: m.token });
  if (done.body.data.list[0]?.state !== "FINISHED") {
    throw new Error(`onboarding ended ${done.body.data.list[0]?.state}`);
  }
}
