import { useTranslation } from "react-i18next";
import { PageHint } from "../../ui/PageHint";
import AggregateIncoming from "./aggregateIncoming";
import { BrandContext } from "../onboarding/BrandContext";

/** `/providers/paymentApplication?sellerBrand=<id>`: a service provider fills and follows a brand's aggregated onboarding with the brand token. */
export default function PaymentApplication() {
  const { t } = useTranslation();
  const hint = (
    <PageHint
      id="providers.paymentApplication"
      title={t("collection.title.apply")}
      description={t("collection.hint.apply")}
    />
  );
  return (
    <BrandContext hint={hint}>
      <AggregateIncoming />
    </BrandContext>
  );
}
