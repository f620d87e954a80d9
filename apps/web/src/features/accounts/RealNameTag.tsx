import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import type { RealNameState } from "@tessera/contracts";

const COLORS: Record<RealNameState, string> = { verified: "success", not_verified: "warning", expired: "error" };

/** Real-name (KYC) state: real-named, not real-named, real-name expired. */
export function RealNameTag({ state }: { state: RealNameState }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[state]} style={{ marginInlineEnd: 0 }}>
      {t(`realName.${state}`)}
    </Tag>
  );
}
