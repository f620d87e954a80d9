# Signing an open-API request in Python 3. Prints the X-Signature of the worked example.
import hashlib
import hmac
import json

secret = b"s3cr3t"  # your API secret (ApiSecurity page)
method = "POST"
path_with_query = "/api/card-api/openapi/order"
timestamp = "1795449600"  # str(int(time.time())) in a real call
nonce = "n0nce-0001"  # 8-64 of A-Z a-z 0-9 _ -, never reused
body = json.dumps({"goodsId": "1", "quantity": 1, "orderNo": "ORDER-0001"}, separators=(",", ":"))  # send exactly these bytes

body_hash = hashlib.sha256(body.encode("utf-8")).hexdigest()
canonical = "\n".join([method, path_with_query, timestamp, nonce, body_hash])
signature = hmac.new(secret, canonical.encode("utf-8"), hashlib.sha256).hexdigest()
print(signature)
# Headers: X-App-Key: <your app key>, X-Timestamp: timestamp, X-Nonce: nonce, X-Signature: signature
