import { useTranslation } from "react-i18next";
import { RequiredStatesNotice } from "../../components/onboarding/RequiredStatesNotice";
import { PageHint } from "../../components/PageHint";
import { DockingList } from "../../components/purchasing/DockingList";

/** `/business/ProcurementLiaison`: purchasers' docking applications: approve, reject, sign, end. */
export default function ProcurementLiaison() {
  const { t } = useTranslation();
  return (
    <DockingList
      side="supplier"
      header={
        <>
          <PageHint id="business.ProcurementLiaison" title={t("docking.hint.businessTitle")} description={t("docking.hint.business")} />
          <RequiredStatesNotice market />
        </>
      }
    />
  );
}
