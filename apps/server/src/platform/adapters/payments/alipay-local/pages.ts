import type { LocalAlipayTrade } from "./store";

/** The local Alipay platform's cashier page (sandbox): what the payer sees at Alipay's wap or page cashier. */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f5f5;color:#111}
header{background:#1677ff;color:#fff;text-align:center;padding:12px 16px;font-size:17px}
main{max-width:480px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:12px;padding:24px 20px;text-align:center}
.sandbox{font-size:12px;color:#ff8f1f;margin-bottom:8px}
.subject{color:#555;word-break:break-all}.amount{font-size:40px;font-weight:600;margin:8px 0 16px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;text-align:left;font-size:14px;color:#555;margin:0 0 24px}
dd{margin:0;text-align:right;word-break:break-all;color:#111}
button{display:block;width:100%;min-height:48px;border:0;border-radius:8px;font-size:17px;margin-top:12px}
.pay{background:#1677ff;color:#fff}.cancel{background:#f2f2f2;color:#111}
.result{font-size:20px;margin:12px 0}.ok{color:#00b578}.bad{color:#ff3141}
`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head><body><header>支付宝 · 收银台</header><main>${body}</main></body></html>`;
}

export function cashierPage(t: LocalAlipayTrade, done: string): string {
  const base = `${encodeURIComponent(t.trade_no)}`;
  const back =
    t.return_url && /^https?:\/\//.test(t.return_url)
      ? `<form method="get" action="${esc(t.return_url)}"><button class="cancel" type="submit">返回商家</button></form>`
      : "";
  const resend = `<form method="post" action="${base}/notify"><button class="cancel" type="submit">重新通知商户</button></form>`;
  const state =
    t.trade_status === "TRADE_SUCCESS" || t.trade_status === "TRADE_FINISHED"
      ? `<p class="result ok">付款成功</p>${t.notified === "delivered" ? "" : `<p class="bad">商户尚未收到通知</p>${resend}`}${back}`
      : t.trade_status === "TRADE_CLOSED"
        ? `<p class="result bad">交易已关闭</p>${back}`
        : `${done === "cancelled" ? '<p class="result bad">已取消付款</p>' : ""}
<form method="post" action="${base}/confirm"><button class="pay" type="submit">确认付款</button></form>
<form method="post" action="${base}/cancel"><button class="cancel" type="submit">取消</button></form>
<form method="post" action="${base}/confirm?notify=later"><button class="cancel" type="submit">付款但延迟通知（模拟网络延迟）</button></form>`;
  return layout(
    "支付宝",
    `<div class="card"><div class="sandbox">本地支付宝平台 · 沙箱，不会扣真实的钱</div>
<div class="subject">${esc(t.subject)}</div>
<div class="amount">${yuan(t.total)}</div>
<dl><dt>商户订单号</dt><dd>${esc(t.out_trade_no)}</dd><dt>支付宝交易号</dt><dd>${esc(t.trade_no)}</dd>
<dt>付款方式</dt><dd>${t.product_code === "QUICK_WAP_WAY" ? "手机网站支付" : "电脑网站支付"}</dd></dl>
${state}</div>`,
  );
}

export function errorPage(message: string): string {
  return layout("支付宝", `<div class="card"><p class="result bad">${esc(message)}</p></div>`);
}
