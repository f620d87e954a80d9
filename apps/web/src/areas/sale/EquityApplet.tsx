import { MiniProgramConsole } from "../../features/miniprogram/Console";

/** `/sale/EquityApplet` and `/international/sale/EquityApplet`: the purchaser's WeChat mini-program malls. */
export default function EquityApplet() {
  return <MiniProgramConsole platform="wechat" hintId="sale.EquityApplet" />;
}
