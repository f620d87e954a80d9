import { Button, Flex, QRCode, Typography } from "antd";
import type { PaymentActionView } from "@tessera/contracts";

/** WeChat's JSAPI bridge inside WeChat's browser (official account pages). */
interface WeixinBridge {
  invoke(name: "getBrandWCPayRequest", params: Record<string, string>, done: (res: { err_msg?: string }) => void): void;
}

/** The page WeChat Pay's H5 cashier returns to when the payer is done. */
export function h5Url(url: string, returnTo: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}redirect_url=${encodeURIComponent(returnTo)}`;
}

/**
 * What the payer does next for a payment the provider confirms later (issue 41): WeChat Pay's H5 cashier,
 * its Native QR code on a desktop, or WeChat's own sheet (JSAPI); Alipay's cashier (`redirect`, the
 * signed URL as the server made it). The page then follows the order until the server has the provider's word.
 */
export function PayAction({
  action,
  returnTo,
  labels,
}: {
  action: PaymentActionView;
  returnTo: string;
  labels: { pay: string; scan: string; waiting: string; alipay?: string };
}) {
  const jsapi = () => {
    if (action.kind !== "jsapi") return;
    const bridge = (window as { WeixinJSBridge?: WeixinBridge }).WeixinJSBridge;
    bridge?.invoke("getBrandWCPayRequest", action.params, () => undefined);
  };
  return (
    <Flex vertical gap={8} align="center" data-testid="pay-action">
      {action.kind === "h5" && (
        <Button type="primary" block size="large" href={h5Url(action.url, returnTo)} data-testid="pay-wechat">
          {labels.pay}
        </Button>
      )}
      {action.kind === "native" && (
        <>
          <Typography.Text>{labels.scan}</Typography.Text>
          <QRCode value={action.codeUrl} />
          <Typography.Link href={action.codeUrl} data-testid="pay-wechat">
            {labels.pay}
          </Typography.Link>
        </>
      )}
      {action.kind === "redirect" && (
        <Button type="primary" block size="large" href={action.url} data-testid="pay-alipay">
          {labels.alipay ?? labels.pay}
        </Button>
      )}
      {action.kind === "jsapi" && (
        <Button type="primary" block size="large" onClick={jsapi} data-testid="pay-wechat">
          {labels.pay}
        </Button>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {labels.waiting}
      </Typography.Text>
    </Flex>
  );
}
