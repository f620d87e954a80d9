import { CODE } from "@tessera/contracts";
import { createCustomerCall } from "../../api/customerCall";
import { currentLang, i18n } from "../../i18n";

/** The card bag's customer calls (api/customerCall.ts): the app's texts and antd's message, 1007 → /client/login. */
export {
  customerSession,
  newRequestKey,
  CUSTOMER_TOKEN_KEY,
  CUSTOMER_PHONE_KEY,
  type CallOptions,
  type CallResult,
} from "../../api/customerCall";
export const CUSTOMER_LOGIN_PATH = "/client/login";

let toast: (msg: string) => void = (msg) => console.error(msg);
/** Pages plug in antd's message once they are mounted. */
export function setCustomerToast(fn: (msg: string) => void): void {
  toast = fn;
}

export const customerCall = createCustomerCall({
  lang: currentLang,
  toast: (msg) => toast(msg),
  interfaceError: () => i18n.t("msg:error.interface"),
  loginExpired: () => i18n.t("msg:onecard.loginExpired"),
  expiredCode: CODE.MALL_LOGIN_EXPIRED,
  defaultLoginPath: CUSTOMER_LOGIN_PATH,
});
