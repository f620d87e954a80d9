// Signing an open-API request in Node.js (18 or later). Prints the X-Signature of the worked example.
import { createHash, createHmac } from "node:crypto";

const secret = "s3cr3t"; // your API secret (ApiSecurity page)
const method = "POST";
const pathWithQuery = "/api/card-api/openapi/order";
const timestamp = "1795449600"; // Math.floor(Date.now() / 1000) in a real call
const nonce = "n0nce-0001"; // 8-64 of A-Z a-z 0-9 _ -, never reused
const body = JSON.stringify({ goodsId: "1", quantity: 1, orderNo: "ORDER-0001" }); // send exactly these bytes

const bodyHash = createHash("sha256").update(body).digest("hex");
const canonical = [method, pathWithQuery, timestamp, nonce, bodyHash].join("\n");
const signature = createHmac("sha256", secret).update(canonical).digest("hex");
console.log(signature);
// Headers: X-App-Key: <your app key>, X-Timestamp: timestamp, X-Nonce: nonce, X-Signature: signature
