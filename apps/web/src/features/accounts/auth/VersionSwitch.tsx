import { Segmented } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { Version } from "@tessera/contracts";
import { loginPathOf } from "../../../api/area";

/** The Chinese / international version switch of the login dialog (spec 01 §1). */
export function VersionSwitch({ version }: { version: Version }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Segmented<Version>
      block
      value={version}
      options={[
        { label: t("auth.versionDomestic"), value: "domestic" },
        { label: t("auth.versionIntl"), value: "international" },
      ]}
      onChange={(v) => void navigate(loginPathOf(v))}
    />
  );
}
