import { useTranslation } from "react-i18next";
import { CardProductsPage } from "./onecard/CardProductsPage";

/**
 * `/business/GuideCard`: the brand's guide cards (引导卡). Our reading: a guide card is a promotional card that leads its
 * holder to the brand's stores or mall: it carries a small or zero value, may be given away (sale price
 * at most the face value, zero allowed), and is handed out in numbers to bring customers in, who then
 * bind it to their card bag and recharge or buy there. It is issued, sold, activated and gifted like the
 * other cards, so the same product, batch and card calls serve it.
 */
export default function GuideCard() {
  const { t } = useTranslation();
  return <CardProductsPage kind="guide" hintId="business.GuideCard" hint={t("onecard.bo.hint.guide")} />;
}
