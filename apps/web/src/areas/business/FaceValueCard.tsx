import { useTranslation } from "react-i18next";
import { CardProductsPage } from "./onecard/CardProductsPage";

/**
 * `/business/FaceValueCard`: the brand's face-value cards: stored-value cards sold at their face value (a 100-yuan card costs
 * 100 yuan). Define, edit, put on or off sale, issue batches, see each batch's cards (numbers masked).
 */
export default function FaceValueCard() {
  const { t } = useTranslation();
  return <CardProductsPage kind="face_value" hintId="business.FaceValueCard" hint={t("onecard.bo.hint.face_value")} />;
}
