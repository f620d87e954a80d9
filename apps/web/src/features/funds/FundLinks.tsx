import { BankOutlined, SwapOutlined, TransactionOutlined, WalletOutlined } from "@ant-design/icons";
import { Button, Space } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { useUserInfo } from "../../api/common";
import { useMyMenus } from "../onboarding/api";
import { useAreas } from "../../ui/areas";
import { homeFundLinks, type FundLinkId } from "./fundLinks";
import { TransferDrawer } from "./TransferDrawer";

const ICONS: Record<FundLinkId, ReactNode> = {
  "home-topup": <BankOutlined />,
  "home-funds": <TransactionOutlined />,
  "home-withdraw": <WalletOutlined />,
};

/**
 * Home page shortcuts (spec 01 §2 screens 5 and 6): top-up, fund changes, withdraw; suppliers also transfer.
 * A sub-account sees only the ones its menus allow (homeFundLinks).
 */
export function FundLinks() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: info } = useUserInfo();
  const { data: menus } = useMyMenus();
  const [transferring, setTransferring] = useState(false);
  const areas = useAreas();
  const area = areas.filter((a) => pathname.startsWith(`${a.base}/`)).sort((a, b) => b.base.length - a.base.length)[0];
  if (!area) return null;
  const { links, transfer } = homeFundLinks(area, menus);
  if (links.length === 0 && !transfer) return null;
  return (
    <Space wrap>
      {links.map((l) => (
        <Link key={l.testId} to={l.to}>
          <Button icon={ICONS[l.testId]} data-testid={l.testId}>
            {t(l.labelKey)}
          </Button>
        </Link>
      ))}
      {transfer && (
        <Button icon={<SwapOutlined />} onClick={() => setTransferring(true)} data-testid="home-transfer">
          {t("transfer.open")}
        </Button>
      )}
      {transfer && (
        <TransferDrawer
          open={transferring}
          onClose={() => setTransferring(false)}
          currency={info?.balances?.income.currency ?? "CNY"}
        />
      )}
    </Space>
  );
}
