import { Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import SmsSendRecord from "../mall/SmsSendRecord";
import SupplierDocking from "../purchasing/SupplierDocking";
import { MiniProgramConsole } from "./Console";

const TABS = ["mall", "sms", "docking"] as const;
type Tab = (typeof TABS)[number];

/**
 * `/international/sale/EquityApplet`, the international purchaser's mini-program mall (spec 01 marketplace
 * screen 15): authorisation, mall parameters and configuration (the console), the SMS package table its
 * customers' login codes are paid from, and the docking with the suppliers whose goods it sells, on one
 * page as tabs (`?tab=` opens one), where the domestic purchaser has them as pages of their own.
 */
export default function IntlEquityApplet() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get("tab");
  const tab: Tab = TABS.includes(asked as Tab) ? (asked as Tab) : "mall";
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setParams(key === "mall" ? {} : { tab: key }, { replace: true })}
      destroyOnHidden
      items={[
        {
          key: "mall",
          label: t("mp.page.EquityApplet"),
          children: <MiniProgramConsole platform="wechat" hintId="sale.EquityApplet" />,
        },
        { key: "sms", label: t("mall.page.SmsSendRecord"), children: <SmsSendRecord /> },
        { key: "docking", label: t("docking.title.sale"), children: <SupplierDocking /> },
      ]}
    />
  );
}
