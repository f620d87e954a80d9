import { useTranslation } from "react-i18next";
import { PageHint } from "../../ui/PageHint";
import { BrandCardProducts } from "./BrandCardProducts";
import { BrandContext } from "../onboarding/BrandContext";

/** `/providers/DiscountCardP?sellerBrand=<id>`: the brand's discount cards (sold below face value), seen by its service provider with the brand token. */
export default function DiscountCardP() {
  const { t } = useTranslation();
  const hint = (
    <PageHint
      id="providers.DiscountCardP"
      title={t("catalog.hint.discountCardsTitle")}
      description={t("catalog.hint.discountCards")}
    />
  );
  return (
    <BrandContext hint={hint}>
      <BrandCardProducts kind="discount" header={hint} />
    </BrandContext>
  );
}
