import { LoginOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { ServiceBinding } from "@tessera/contracts";
import { BRAND_REAL_NAME_PAGE, saveBrandGrant } from "../../api/brandTokens";
import { ServedMerchants } from "./ServedMerchants";
import { useBrandTokenExchange } from "./api";

/**
 * `/providers/BrandsList`: the brands bound to this provider. Opening a brand exchanges the provider's
 * session for that brand's token (kept in this tab only) and goes to the brand's real-name page.
 */
export default function BrandsList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const exchange = useBrandTokenExchange();

  const open = async (row: ServiceBinding) => {
    const r = await exchange.mutateAsync(row.id);
    if (!r?.ok) return;
    const grant = saveBrandGrant(r.data, row.merchantName);
    void navigate(`${BRAND_REAL_NAME_PAGE}?sellerBrand=${grant.branderId}`);
  };

  return (
    <ServedMerchants
      pageId="providers.BrandsList"
      kind="brand"
      hintTitleKey="providers.list.brandsHintTitle"
      hintKey="providers.list.brandsHint"
      actions={(row) => (
        <Button
          size="small"
          type="link"
          icon={<LoginOutlined />}
          loading={exchange.isPending && exchange.variables === row.id}
          onClick={() => void open(row)}
          data-testid={`enter-brand-${row.merchantId}`}
        >
          {t("providers.list.enterBrand")}
        </Button>
      )}
    />
  );
}
