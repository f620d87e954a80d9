import { Tag, type TableColumnsType } from "antd";
import type { TFunction } from "i18next";
import type { Store } from "@tessera/contracts";
import type { SearchValues } from "../../ui/list/searchValues";
import type { StoreListQuery } from "./api";
import type { RegionOption } from "./regions";

/** The columns every store list shows. */
export function storeColumns(t: TFunction, withBrand = false): TableColumnsType<Store> {
  return [
    ...(withBrand ? [{ title: t("stores.brand"), dataIndex: "branderName", width: 160, ellipsis: true }] : []),
    { title: t("stores.name"), dataIndex: "name", width: 180, ellipsis: true },
    { title: t("stores.region"), dataIndex: "region", width: 180 },
    { title: t("stores.address"), dataIndex: "address", width: 220, ellipsis: true },
    { title: t("stores.openingHours"), dataIndex: "openingHours", width: 120 },
    {
      title: t("stores.contact"),
      key: "contact",
      width: 170,
      render: (_: unknown, s) => [s.contactName, s.contactPhone].filter(Boolean).join(" "),
    },
    { title: t("stores.district"), dataIndex: "districtName", width: 120, render: (v: string | null) => v ?? "-" },
    {
      title: t("stores.state"),
      dataIndex: "state",
      width: 90,
      render: (v: Store["state"]) => <Tag color={v === "open" ? "green" : "default"}>{t(`stores.${v}`)}</Tag>,
    },
  ];
}

/** The search bar's region cascader and keyword, as the list call's filters. */
export function storeFilters(
  values: SearchValues,
): Pick<StoreListQuery, "keyword" | "provinceCode" | "cityCode" | "countyCode" | "state"> {
  const [provinceCode, cityCode, countyCode] = values.curCascader ?? [];
  const sel = typeof values.selVal === "string" ? values.selVal : undefined;
  return {
    keyword: values.inpVal,
    provinceCode,
    cityCode,
    countyCode,
    state: sel === "open" || sel === "closed" ? sel : undefined,
  };
}

export function storeSearch(t: TFunction, regions: RegionOption[]) {
  return {
    input: { keys: [{ value: "keyword", label: t("stores.keyword") }] },
    select: {
      keys: [
        {
          value: "state",
          label: t("stores.state"),
          options: [
            { value: "open", label: t("stores.open") },
            { value: "closed", label: t("stores.closed") },
          ],
        },
      ],
    },
    cascader: { options: regions, placeholder: t("stores.region") },
  };
}
