#!/bin/sh
# Signing an open-API request with OpenSSL in a POSIX shell. Prints the X-Signature of the worked example.
secret='s3cr3t'                      # your API secret (ApiSecurity page)
timestamp='1795449600'               # $(date +%s) in a real call
nonce='n0nce-0001'                   # 8-64 of A-Z a-z 0-9 _ -, never reused
body='{"goodsId":"1","quantity":1,"orderNo":"ORDER-0001"}'   # send exactly these bytes

body_hash=$(printf '%s' "$body" | openssl dgst -sha256 -hex | sed 's/^.* //')
printf 'POST\n/api/card-api/openapi/order\n%s\n%s\n%s' "$timestamp" "$nonce" "$body_hash" \
  | openssl dgst -sha256 -hmac "$secret" -hex | sed 's/^.* //'
# curl -X POST "$HOST/api/card-api/openapi/order" -H 'content-type: application/json' \
#   -H "X-App-Key: $APP_KEY" -H "X-Timestamp: $timestamp" -H "X-Nonce: $nonce" -H "X-Signature: <the line above>" --data "$body"
