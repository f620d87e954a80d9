import { useQuery } from "@tanstack/react-query";
import { Badge, Card, Flex, Table, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { TakeoutApplet as Applet } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";

/**
 * `/providers/TakeoutApplet`: the takeout mini-shops of the brands the provider serves: whether each is
 * set up and open now, its customers' page, today's orders, the orders waiting for the shop and today's
 * completed takings.
 */
export default function TakeoutApplet() {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({
    queryKey: ["takeout", "applets"],
    queryFn: async () => unwrap(await http.get<Applet[]>("/api/card-servicer/takeout/applets", { overlay: false })),
    refetchInterval: 30_000,
  });
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="providers.TakeoutApplet"
        title={t("takeout.page.TakeoutApplet")}
        description={t("takeout.hint.applet")}
      />
      <Card variant="borderless">
        <Table<Applet>
          rowKey="merchantId"
          loading={isLoading}
          dataSource={data ?? []}
          pagination={false}
          scroll={{ x: 900 }}
          columns={[
            { title: t("takeout.brand"), dataIndex: "merchantName", width: 200 },
            {
              title: t("takeout.shopName"),
              key: "shop",
              width: 200,
              render: (_: unknown, a) =>
                a.shop ? (
                  <span>
                    {a.shop.name}{" "}
                    <Tag color={a.shop.openNow ? "green" : "default"}>
                      {a.shop.openNow ? t("takeout.openNow") : t("takeout.closedNow")}
                    </Tag>
                  </span>
                ) : (
                  <Tag>{t("takeout.notSetUp")}</Tag>
                ),
            },
            {
              title: t("takeout.customerLink"),
              dataIndex: "link",
              width: 260,
              render: (link: string, a) =>
                a.shop ? (
                  <Typography.Link href={link} target="_blank" copyable={{ text: `${window.location.origin}${link}` }}>
                    {link}
                  </Typography.Link>
                ) : (
                  "—"
                ),
            },
            { title: t("takeout.ordersToday"), dataIndex: "ordersToday", width: 110, align: "right" },
            {
              title: t("takeout.waiting"),
              dataIndex: "waiting",
              width: 110,
              align: "right",
              render: (n: number) => <Badge count={n} showZero color={n ? "orange" : "gray"} />,
            },
            {
              title: t("takeout.completedToday"),
              dataIndex: "completedToday",
              width: 140,
              align: "right",
              render: (m: Applet["completedToday"]) => formatMoney(m),
            },
          ]}
        />
      </Card>
    </Flex>
  );
}
