import { BankOutlined, SwapOutlined, TransactionOutlined, WalletOutlined } from "@ant-design/icons";
import { Button, Space } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { useUserInfo } from "../../api/hooks/account";
import { AREAS } from "../../app/routes";
import { TransferDrawer } from "./TransferDrawer";

/** The funds pages a home page links to, by route name; each is shown only where its area has it. */
const LINKS: { paths: string[]; labelKey: string; icon: ReactNode; testId: string }[] = [
  { paths: ["RechargeSheet"], labelKey: "funds.menu.topUp", icon: <BankOutlined />, testId: "home-topup" },
  { paths: ["FundRelated", "FundsChange", "ChangesFunds", "ChangesFundsP"], labelKey: "funds.menu.fundRelated", icon: <TransactionOutlined />, testId: "home-funds" },
  { paths: ["WithdrawalRecord", "WithdrawalRecordB", "WithdrawalRecordP"], labelKey: "withdraw.withdraw", icon: <WalletOutlined />, testId: "home-withdraw" },
];

/** Home page shortcuts (spec 01 §2 screens 5 and 6): top-up, fund changes, withdraw; suppliers also transfer. */
export function FundLinks() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: info } = useUserInfo();
  const [transferring, setTransferring] = useState(false);
  const area = AREAS.filter((a) => pathname.startsWith(`${a.base}/`)).sort((a, b) => b.base.length - a.base.length)[0];
  if (!area) return null;
  const links = LINKS.flatMap((l) => {
    const page = area.pages.find((p) => l.paths.includes(p.path));
    return page ? [{ ...l, to: `${area.base}/${page.path}` }] : [];
  });
  const supplier = area.role === "business";
  if (links.length === 0 && !supplier) return null;
  return (
    <Space wrap>
      {links.map((l) => (
        <Link key={l.testId} to={l.to}>
          <Button icon={l.icon} data-testid={l.testId}>
            {t(l.labelKey)}
          </Button>
        </Link>
      ))}
      {supplier && (
        <Button icon={<SwapOutlined />} onClick={() => setTransferring(true)} data-testid="home-transfer">
          {t("transfer.open")}
        </Button>
      )}
      {supplier && <TransferDrawer open={transferring} onClose={() => setTransferring(false)} currency={info?.balances?.income.currency ?? "CNY"} />}
    </Space>
  );
}
