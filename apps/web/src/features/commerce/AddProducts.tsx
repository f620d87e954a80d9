import { Card, Flex } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useUserInfo } from "../../api/common";
import { PageHint } from "../../ui/PageHint";
import { CommodityForm } from "./CommodityForm";

/** `/business/AddProducts`: a new product with its specifications and SKUs; saved, it opens the product list. */
export default function AddProducts() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const currency = useUserInfo().data?.merchant?.currency ?? "CNY";
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="business.AddProducts"
        title={t("commerce.page.AddProducts")}
        description={t("commerce.hint.products")}
      />
      <Card variant="borderless">
        <CommodityForm commodity={null} currency={currency} onSaved={() => void navigate("/business/ProductList")} />
      </Card>
    </Flex>
  );
}
