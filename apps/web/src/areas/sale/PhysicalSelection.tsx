import { useTranslation } from "react-i18next";
import { GoodsPage } from "./commerce/GoodsPage";

/** `/sale/PhysicalSelection`: brands' physical goods on the shelf: pick to resell, order for a customer. */
export default function PhysicalSelection() {
  const { t } = useTranslation();
  return (
    <GoodsPage
      kind="physical"
      hintId="sale.PhysicalSelection"
      title={t("commerce.page.PhysicalSelection")}
      hint={t("commerce.hint.selection")}
    />
  );
}
