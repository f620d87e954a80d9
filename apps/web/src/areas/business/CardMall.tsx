import { useTranslation } from "react-i18next";
import { CardProductsPage } from "./onecard/CardProductsPage";

/**
 * `/business/CardMall`: the brand's cards on offer to purchasers: every card product on sale, of every
 * kind, as purchasers see them in their OneCardMall; take one off sale, issue more stock, see batches.
 */
export default function CardMall() {
  const { t } = useTranslation();
  return <CardProductsPage hintId="business.CardMall" hint={t("onecard.bo.hint.mall")} onSaleOnly />;
}
