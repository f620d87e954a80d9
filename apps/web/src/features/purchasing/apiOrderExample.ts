/** The open purchase API's order call (apps/server openapi routes) and a ready request for one goods. */
export const OPEN_API_ORDER_METHOD = "POST";
export const OPEN_API_ORDER_PATH = "/api/card-api/openapi/order";

export interface ExampleGoods {
  goodsId: string;
  /** Direct top-up goods need the account to top up. */
  fromStock: boolean;
}

/** The body of an order for one unit of the goods, under an example order number. */
export function exampleOrderBody(goods: ExampleGoods, orderNo: string): string {
  return JSON.stringify({
    goodsId: goods.goodsId,
    quantity: 1,
    ...(goods.fromStock ? {} : { topUpAccount: "13800000000" }),
    orderNo,
  });
}

/**
 * A runnable shell example: signs the body as the open API checks it (hex HMAC-SHA256 under the secret
 * of METHOD, path, timestamp, nonce and the body's SHA-256, joined by newlines) and sends it with curl.
 */
export function exampleOrderRequest(
  goods: ExampleGoods,
  o: { origin: string; appKey: string | null; orderNo: string },
): string {
  const body = exampleOrderBody(goods, o.orderNo);
  return [
    `APP_KEY='${o.appKey ?? "<your app key>"}'`,
    `SECRET='<your secret>'`,
    `BODY='${body}'`,
    `TS=$(date +%s); NONCE=$(openssl rand -hex 8)`,
    `SIG=$(printf '${OPEN_API_ORDER_METHOD}\\n${OPEN_API_ORDER_PATH}\\n%s\\n%s\\n%s' "$TS" "$NONCE" "$(printf ` +
      `%s "$BODY" | sha256sum | cut -d' ' -f1)" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')`,
    `curl -X ${OPEN_API_ORDER_METHOD} '${o.origin}${OPEN_API_ORDER_PATH}' -H 'Content-Type: application/json' \\`,
    `  -H "X-App-Key: $APP_KEY" -H "X-Timestamp: $TS" -H "X-Nonce: $NONCE" -H "X-Signature: $SIG" -d "$BODY"`,
  ].join("\n");
}
