import { useTranslation } from "react-i18next";
import { CardProductsPage } from "./onecard/CardProductsPage";

/**
 * `/business/DiscountCard`: the brand's discount cards: stored-value cards sold below their face value (a 100-yuan card for
 * 90), the brand's way to bring money in early. Define, edit, on/off sale, issue batches, see their cards.
 */
export default function DiscountCard() {
  const { t } = useTranslation();
  return <CardProductsPage kind="discount" hintId="business.DiscountCard" hint={t("onecard.bo.hint.discount")} />;
}
