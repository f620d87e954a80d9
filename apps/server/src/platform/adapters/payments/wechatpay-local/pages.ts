import type { LocalRefund, LocalTransaction } from "./store";

/** The local WeChat Pay platform's pages (sandbox): what the payer sees at WeChat's cashier. */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#ededed;color:#111}
main{max-width:480px;margin:0 auto;padding:24px 16px}
.card{background:#fff;border-radius:12px;padding:24px 20px;text-align:center}
.sandbox{font-size:12px;color:#fa9d3b;margin-bottom:8px}
.merchant{color:#555}.amount{font-size:40px;font-weight:600;margin:8px 0 16px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;text-align:left;font-size:14px;color:#555;margin:0 0 24px}
dd{margin:0;text-align:right;word-break:break-all;color:#111}
button,a.button{display:block;width:100%;min-height:48px;border:0;border-radius:8px;font-size:17px;margin-top:12px;text-decoration:none;line-height:48px}
.pay{background:#07c160;color:#fff}.cancel{background:#f2f2f2;color:#111}
.result{font-size:20px;margin:12px 0}.ok{color:#07c160}.bad{color:#fa5151}
table{width:100%;border-collapse:collapse;font-size:14px}td{padding:8px 4px;border-bottom:1px solid #eee}
`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

export function approvalPage(t: LocalTransaction, mchid: string, redirectUrl: string, done: string): string {
  const q = redirectUrl ? `?redirect_url=${encodeURIComponent(redirectUrl)}` : "";
  const back =
    redirectUrl && /^https?:\/\//.test(redirectUrl)
      ? `<a class="button cancel" href="${esc(redirectUrl)}">返回商家</a>`
      : "";
  const resend = `<form method="post" action="${esc(t.prepay_id)}/notify${q}"><button class="cancel" type="submit">重新通知商户</button></form>`;
  const state =
    t.trade_state === "SUCCESS" || t.trade_state === "REFUND"
      ? `<p class="result ok">支付成功</p>${t.notified === "delivered" ? "" : `<p class="bad">商户尚未收到通知</p>${resend}`}${back}`
      : t.trade_state === "CLOSED"
        ? `<p class="result bad">订单已关闭</p>${back}`
        : `${done === "cancelled" ? '<p class="result bad">已取消支付</p>' : ""}
<form method="post" action="${esc(t.prepay_id)}/confirm${q}"><button class="pay" type="submit">确认支付</button></form>
<form method="post" action="${esc(t.prepay_id)}/cancel${q}"><button class="cancel" type="submit">取消</button></form>
<form method="post" action="${esc(t.prepay_id)}/confirm${q ? `${q}&` : "?"}notify=later"><button class="cancel" type="submit">支付但延迟通知（模拟网络延迟）</button></form>`;
  return layout(
    "微信支付",
    `<div class="card"><div class="sandbox">本地微信支付平台 · 沙箱，不会扣真实的钱</div>
<div class="merchant">${esc(t.description)}</div>
<div class="amount">${yuan(t.total)}</div>
<dl><dt>收款商户号</dt><dd>${esc(mchid)}</dd><dt>商户订单号</dt><dd>${esc(t.out_trade_no)}</dd>
<dt>支付方式</dt><dd>${{ JSAPI: "JSAPI", MWEB: "H5", NATIVE: "Native 扫码" }[t.trade_type]}</dd></dl>
${state}</div>`,
  );
}

export function refundsPage(refunds: LocalRefund[]): string {
  const rows = refunds
    .map(
      (r) => `<tr><td>${esc(r.out_refund_no)}<br><small>${esc(r.out_trade_no)}</small></td><td>${yuan(r.refund)}</td>
<td><form method="post" action="refunds/${esc(r.out_refund_no)}/notify?status=SUCCESS"><button class="pay" type="submit">退款成功</button></form>
<form method="post" action="refunds/${esc(r.out_refund_no)}/notify?status=ABNORMAL"><button class="cancel" type="submit">退款异常</button></form></td></tr>`,
    )
    .join("");
  return layout(
    "退款处理中",
    `<div class="card"><div class="sandbox">本地微信支付平台 · 沙箱</div><h1>处理中的退款</h1>
${refunds.length ? `<table>${rows}</table>` : "<p>没有处理中的退款</p>"}</div>`,
  );
}
