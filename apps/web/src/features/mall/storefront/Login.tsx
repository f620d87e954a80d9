import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { CustomerLoginReply } from "@tessera/contracts";
import { mallBase, type PageProps } from "./MallApp";
import { customerCall, customerSession, mallCall } from "./mallApi";

/**
 * `/mall/:appId/login`: the customer logs in by phone and SMS code; the code is sent by this mall (and
 * counted against its SMS packages), the login is the card bag's (one customer account). The behaviour of
 * features/onecard/client/CustomerLoginForm without antd: required fields, a countdown on the send button, the
 * server's messages as toasts, then back to where the customer came from (a storefront address only).
 */
export default function MallLogin({ appId, back }: PageProps & { back: string | null }) {
  const { t } = useTranslation();
  const [phone, setPhone] = useState("");
  const [smsCode, setSmsCode] = useState("");
  const [errors, setErrors] = useState<{ phone?: string; smsCode?: string }>({});
  const [wait, setWait] = useState(0);
  const [busy, setBusy] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearInterval(timer.current), []);
  const send = async () => {
    const r = await mallCall<{ resendIn: number }>(appId, "POST", "/customer/sendSms", {
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
      ...(phone.trim() ? {} : { phone: t("login.phoneRequired") }),
      ...(smsCode.trim() ? {} : { smsCode: t("login.smsRequired") }),
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
    window.location.assign(back?.startsWith("/mall/") ? back : mallBase(appId));
  };
  return (
    <form className="m-card m-form" onSubmit={(e) => void submit(e)} noValidate>
      <label className="m-field" htmlFor="phone">
        <span className="m-label">{t("login.phone")}</span>
      </label>
      <input
        id="phone"
        className="m-input m-input-large"
        inputMode="tel"
        maxLength={11}
        autoComplete="tel"
        value={phone}
        aria-invalid={Boolean(errors.phone)}
        onChange={(e) => setPhone(e.target.value)}
      />
      {errors.phone && <div className="m-error">{errors.phone}</div>}
      <label className="m-field" htmlFor="smsCode">
        <span className="m-label">{t("login.smsCode")}</span>
      </label>
      <div className="m-input-group">
        <input
          id="smsCode"
          className="m-input m-input-large"
          inputMode="numeric"
          maxLength={6}
          autoComplete="one-time-code"
          value={smsCode}
          aria-invalid={Boolean(errors.smsCode)}
          onChange={(e) => setSmsCode(e.target.value)}
        />
        <button type="button" className="m-link-btn" disabled={wait > 0} onClick={() => void send()}>
          {wait > 0 ? t("login.resendIn", { s: wait }) : t("login.sendCode")}
        </button>
      </div>
      {errors.smsCode && <div className="m-error">{errors.smsCode}</div>}
      <button type="submit" className="m-btn m-btn-primary m-btn-large m-btn-block" disabled={busy} aria-busy={busy}>
        {t("login.login")}
      </button>
    </form>
  );
}
