import { Segmented } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { SELECTION_TYPES, type SelectionType } from "@tessera/contracts";
import { SelectionList } from "./SelectionList";

/**
 * `/international/sale/GoodsList`: the international marketplace's goods selection (spec 01 §2 screen
 * 10), one list per type (direct top-up, card secret, coupon) behind a switch. The list keeps its
 * filters in the URL; switching the type starts the new list without them.
 */
export default function IntlGoodsList() {
  const { t } = useTranslation();
  const [type, setType] = useState<SelectionType>("direct");
  const [, setParams] = useSearchParams();
  const label = {
    direct: t("catalog.menu.goodsList"),
    card: t("catalog.menu.carmiGoodsList"),
    coupon: t("catalog.menu.couponSelection"),
  };
  return (
    <SelectionList
      key={type}
      type={type}
      extra={
        <Segmented<SelectionType>
          value={type}
          options={SELECTION_TYPES.map((v) => ({ value: v, label: label[v] }))}
          onChange={(v) => {
            setParams(new URLSearchParams());
            setType(v);
          }}
        />
      }
    />
  );
}
