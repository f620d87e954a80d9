import { CheckCircleFilled, RightOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Flex, List, Progress, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import type { SetupCapability, SetupChecklist as Checklist } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { useSession } from "../../api/common";
import { useMyMenus } from "../onboarding/api";
import { useAreas } from "../../ui/areas";
import { pageInArea } from "./pageInArea";

/** Which capabilities each home follows: the supplier/brand back-office and the purchaser's. */
const AREA_CAPABILITIES: Record<"business" | "sale", readonly SetupCapability[]> = {
  business: ["cards", "stores", "takeout", "collection"],
  sale: ["mall"],
};

export const setupKeys = { checklist: (token: string | null) => ["setup", "checklist", token] as const };

/**
 * The home's setup checklist (issue 40, item 13; as Shopify's and Youzan's onboarding): one row per capability
 * with its progress and the next step as a button to the page where it is done; a finished capability says so.
 * Only the main account sees it (a sub-account's home shows what its menus allow).
 */
export function SetupChecklist({ area }: { area: "business" | "sale" }) {
  const { t } = useTranslation();
  const { token } = useSession();
  const { data: menus } = useMyMenus();
  const { pathname } = useLocation();
  const current = useAreas()
    .filter((a) => pathname.startsWith(`${a.base}/`))
    .sort((a, b) => b.base.length - a.base.length)[0];
  const checklist = useQuery({
    queryKey: setupKeys.checklist(token),
    enabled: Boolean(token) && menus === null,
    queryFn: async () => unwrap(await http.get<Checklist>("/api/card-user/setup/checklist", { overlay: false })),
  });
  if (menus !== null || !checklist.data) return null;
  // A capability whose pages this area does not have is not offered here (the international areas).
  const rows = checklist.data.capabilities
    .filter((c) => AREA_CAPABILITIES[area].includes(c.key))
    .filter((c) => c.steps.every((s) => pageInArea(s.page, current) !== undefined));
  if (rows.length === 0) return null;
  return (
    <Card variant="borderless" title={t("setup.title")} data-testid="setup-checklist">
      <List
        dataSource={rows}
        renderItem={(c) => {
          const done = c.steps.filter((s) => s.done).length;
          const next = c.steps.find((s) => !s.done);
          return (
            <List.Item
              data-testid={`setup-${c.key}`}
              actions={[
                next ? (
                  <Link key="next" to={pageInArea(next.page, current) ?? next.page}>
                    <Button type={done > 0 ? "primary" : "default"} icon={<RightOutlined />} iconPlacement="end">
                      {t(`setup.${c.key}.${next.key}`)}
                    </Button>
                  </Link>
                ) : (
                  <Tag key="done" color="success" icon={<CheckCircleFilled />}>
                    {t("setup.ready")}
                  </Tag>
                ),
              ]}
            >
              <List.Item.Meta
                title={t(`setup.${c.key}.title`)}
                description={
                  <Flex vertical gap={4}>
                    <Typography.Text type="secondary">{t(`setup.${c.key}.hint`)}</Typography.Text>
                    <Progress
                      percent={Math.round((done / c.steps.length) * 100)}
                      size="small"
                      style={{ maxWidth: 280 }}
                      format={() => t("setup.progress", { done, total: c.steps.length })}
                    />
                  </Flex>
                }
              />
            </List.Item>
          );
        }}
      />
    </Card>
  );
}
