import { useTranslation } from "react-i18next";
import { PageHint } from "../../ui/PageHint";
import { BrandCardProducts } from "./BrandCardProducts";
import { BrandContext } from "../onboarding/BrandContext";

/** `/providers/FaceValueCardP?sellerBrand=<id>`: the brand's face value cards (sold at face value), seen by its service provider with the brand token. */
export default function FaceValueCardP() {
  const { t } = useTranslation();
  const hint = (
    <PageHint
      id="providers.FaceValueCardP"
      title={t("catalog.hint.faceValueCardsTitle")}
      description={t("catalog.hint.faceValueCards")}
    />
  );
  return (
    <BrandContext hint={hint}>
      <BrandCardProducts kind="faceValue" header={hint} />
    </BrandContext>
  );
}
