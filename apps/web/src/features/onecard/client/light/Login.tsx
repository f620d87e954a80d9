import { useEffect, useRef, useState, type FormEvent } from "react";
import type { CustomerLoginReply, TakeoutMenu } from "@tessera/contracts";
import { customerSession } from "../../../../api/customerCall";
import { useLoad } from "../../../mall/storefront/useLoad";
import { useBagLocation } from "./nav";
import type { BagPageProps } from "./BagApp";
import { Shell } from "./Shell";
import { customerCall, useTexts } from "./texts";

/**
 * `/client/login`: the end customer logs in with a phone number and an SMS code (no password). Sent here from a
 * takeout shop (`back=/takeout/<shop>`), it names the shop and says the order waits there (issue 40, item 2).
 * Then back to `back` (a path of this site) or the card bag.
 */
export default function Login({ onLang }: BagPageProps) {
  const { t } = useTexts();
  const { search } = useBagLocation();
  const back = search.get("back");
  const shopId = /^\/takeout\/(\d+)$/.exec(back ?? "")?.[1];
  const shop = useLoad(
    `shop:${shopId ?? ""}`,
    async () => {
      const r = await customerCall<TakeoutMenu>("GET", `/api/mall/takeout/shops/${shopId}`, { toast: false });
      return r.ok ? r.data.shop.name : null;
    },
    { enabled: shopId !== undefined },
  );
  const shopName = shop.data ?? null;
  const [phone, setPhone] = useState("");
  const [smsCode, setSmsCode] = useState("");
  const [errors, setErrors] = useState<{ phone?: string; smsCode?: string }>({});
  const [wait, setWait] = useState(0);
  const [busy, setBusy] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearInterval(timer.current), []);
  const send = async () => {
    const r = await customerCall<{ resendIn: number }>("POST", "/api/mall/customer/sendSms", {
      body: { phone: phone.trim() },
    });
    if (!r.ok) return;
    let left = r.data.resendIn;
    setWait(left);
    window.clearInterval(timer.current);
    timer.current = window.setInterval(() => {
      left -= 1;
      setWait(left);
      if (left <= 0) window.clearInterval(timer.current);
    }, 1000);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = {
      ...(phone.trim() ? {} : { phone: t("onecard.phoneRequired") }),
      ...(smsCode.trim() ? {} : { smsCode: t("onecard.smsRequired") }),
    };
    setErrors(found);
    if (found.phone || found.smsCode) return;
    setBusy(true);
    const r = await customerCall<CustomerLoginReply>("POST", "/api/mall/customer/login", {
      body: { phone: phone.trim(), smsCode: smsCode.trim() },
    });
    setBusy(false);
    if (!r.ok) return;
    customerSession.set(r.data.token, r.data.phone);
    window.location.assign(back?.startsWith("/") ? back : "/client/cardBag");
  };
  return (
    <Shell
      title={shopName ? t("onecard.loginFor", { shop: shopName }) : t("onecard.title.login")}
      needsLogin={false}
      tabs={false}
      onLang={onLang}
    >
      {shopName && (
        <div className="cb-alert" role="note" data-testid="login-shop">
          {t("onecard.loginBackTo", { shop: shopName })}
        </div>
      )}
      <form className="cb-card cb-form" onSubmit={(e) => void submit(e)} noValidate>
        <label className="cb-label" htmlFor="phone">
          {t("onecard.phone")}
        </label>
        <input
          id="phone"
          className="cb-input"
          inputMode="tel"
          maxLength={11}
          autoComplete="tel"
          value={phone}
          aria-invalid={Boolean(errors.phone)}
          onChange={(e) => setPhone(e.target.value)}
        />
        {errors.phone && <div className="cb-error">{errors.phone}</div>}
        <label className="cb-label" htmlFor="smsCode">
          {t("onecard.smsCode")}
        </label>
        <div className="cb-input-group">
          <input
            id="smsCode"
            className="cb-input"
            inputMode="numeric"
            maxLength={6}
            autoComplete="one-time-code"
            value={smsCode}
            aria-invalid={Boolean(errors.smsCode)}
            onChange={(e) => setSmsCode(e.target.value)}
          />
          <button type="button" className="cb-link-btn" disabled={wait > 0} onClick={() => void send()}>
            {wait > 0 ? t("onecard.resendIn", { s: wait }) : t("onecard.sendCode")}
          </button>
        </div>
        {errors.smsCode && <div className="cb-error">{errors.smsCode}</div>}
        <button type="submit" className="cb-btn cb-btn-primary cb-btn-block" disabled={busy} aria-busy={busy}>
          {t("onecard.login")}
        </button>
      </form>
    </Shell>
  );
}
