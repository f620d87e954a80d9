import { Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { RequiredStatesNotice } from "../onboarding/RequiredStatesNotice";
import { PageHint } from "../../ui/PageHint";
import { DockingList } from "./DockingList";
import { GrantedRebates } from "../commission/GrantedRebates";
import { RebateRules } from "../commission/RebateRules";

const TABS = ["docking", "rebateRules", "rebates"] as const;
type Tab = (typeof TABS)[number];

/**
 * `/business/ProcurementLiaison`: purchasers' docking applications (approve, reject, sign, end), and the
 * rebates the supplier gives its purchasers: the rules (返利规则) and the rebates granted. The tab is in
 * the URL (`?tab=`); switching tabs starts the list's filters afresh.
 */
export default function ProcurementLiaison() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const current = params.get("tab");
  const tab: Tab = TABS.includes(current as Tab) ? (current as Tab) : "docking";
  return (
    <>
      <PageHint
        id="business.ProcurementLiaison"
        title={t("docking.hint.businessTitle")}
        description={t("docking.hint.business")}
      />
      <Tabs
        activeKey={tab}
        destroyOnHidden
        onChange={(key) => setParams(key === "docking" ? {} : { tab: key })}
        items={[
          {
            key: "docking",
            label: t("docking.title.business"),
            children: <DockingList side="supplier" header={<RequiredStatesNotice market />} />,
          },
          { key: "rebateRules", label: t("rebate.rules.title"), children: <RebateRules /> },
          { key: "rebates", label: t("rebate.granted.title"), children: <GrantedRebates /> },
        ]}
      />
    </>
  );
}
