import { useQuery } from "@tanstack/react-query";
import { Select } from "antd";
import { useTranslation } from "react-i18next";
import { servedQuery } from "../onboarding/api";

/** The brands a service provider serves, to pick one (VisitorStore, WriteFund). */
export function ServedBrandSelect({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (id: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const served = useQuery(servedQuery({ page: 1, pageSize: 1000, kind: "brand" }));
  return (
    <Select
      style={{ width: 280 }}
      allowClear
      value={value}
      onChange={onChange}
      placeholder={t("stores.chooseBrand")}
      aria-label={t("stores.chooseBrand")}
      options={(served.data?.list ?? []).map((b) => ({
        value: b.merchantId,
        label: `${b.merchantName} (${b.merchantId})`,
      }))}
    />
  );
}
