import { useTranslation } from "react-i18next";
import { PageHint } from "../../ui/PageHint";
import BrandAuthorization from "./BrandAuthorization";
import { BrandContext } from "../onboarding/BrandContext";

/**
 * `/providers/BrandAuthorizationP?sellerBrand=<id>`: the brand's authorisations (who may sell or buy
 * its goods), granted and revoked by its service provider with the brand token — the brand's own page,
 * acting as the brand.
 */
export default function BrandAuthorizationP() {
  const { t } = useTranslation();
  return (
    <BrandContext
      hint={
        <PageHint
          id="providers.BrandAuthorizationP"
          title={t("brandAuth.hintTitle")}
          description={t("brandAuth.hint")}
        />
      }
    >
      <BrandAuthorization />
    </BrandContext>
  );
}
