import { useTranslation } from "react-i18next";
import { GoodsPage } from "./commerce/GoodsPage";

/** `/sale/RealGoods`: the physical goods the purchaser picked to resell, ordered for a customer with a delivery address. */
export default function RealGoods() {
  const { t } = useTranslation();
  return (
    <GoodsPage
      kind="physical"
      picked
      hintId="sale.RealGoods"
      title={t("commerce.page.RealGoods")}
      hint={t("commerce.hint.picked")}
    />
  );
}
