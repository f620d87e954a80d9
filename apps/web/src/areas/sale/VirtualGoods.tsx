import { useTranslation } from "react-i18next";
import { GoodsPage } from "./commerce/GoodsPage";

/** `/sale/VirtualGoods`: brands' virtual goods on the shelf: pick to resell, order for a customer. */
export default function VirtualGoods() {
  const { t } = useTranslation();
  return (
    <GoodsPage
      kind="virtual"
      hintId="sale.VirtualGoods"
      title={t("commerce.page.VirtualGoods")}
      hint={t("commerce.hint.selection")}
    />
  );
}
