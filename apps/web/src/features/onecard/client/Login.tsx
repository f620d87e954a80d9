import { useTranslation } from "react-i18next";
import { customerCall } from "../../customer/customerApi";
import { CustomerLoginForm } from "./CustomerLoginForm";
import { Shell } from "../../customer/Shell";

/** `/client/login`: the end customer logs in with a phone number and an SMS code (no password). */
export default function Login() {
  const { t } = useTranslation();
  return (
    <Shell title={t("onecard.title.login")} needsLogin={false} tabs={false}>
      <CustomerLoginForm
        sendCode={(phone) =>
          customerCall<{ resendIn: number }>("POST", "/api/mall/customer/sendSms", { body: { phone } })
        }
        next={(back) => (back?.startsWith("/") ? back : "/client/cardBag")}
      />
    </Shell>
  );
}
