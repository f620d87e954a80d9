import { Alert, Button, Card, Input, Modal, Space, Table, Tag, Typography, type TableColumnsType } from "antd";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ApiInfoReply, ApiPurchaseGoods, Page } from "@tessera/contracts";
import { areaPrefixOf } from "../../api/area";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { useSession, useUserInfo } from "../../api/common";
import { SupTopUpDialog } from "../funds/SupTopUpDialog";
import { ExportButton } from "../../ui/list/useExport";
import { formatMoney } from "../../ui/money";
import { exampleOrderRequest, OPEN_API_ORDER_METHOD, OPEN_API_ORDER_PATH } from "./apiOrderExample";
import { PAGE_SIZES } from "@tessera/contracts";

/**
 * The API purchase table of marketplace screen 11, beside the purchase form: for purchasers who buy by
 * the open API, the goods they may buy with goods id and SKU code, their price, the open API's order
 * method and a ready, signed request example; the SUP balance orders are paid from, with the same top-up
 * dialog as the purchase form when it is short.
 */
export function ApiPurchaseTable() {
  const { t } = useTranslation();
  const { version } = useSession();
  const sale = `${areaPrefixOf(version)}/sale`;
  const { data: info } = useUserInfo();
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [keyword, setKeyword] = useState("");
  const goods = useQuery({
    queryKey: ["apiPurchase", "goods", paging, keyword],
    queryFn: async () =>
      unwrap(
        await http.get<Page<ApiPurchaseGoods>>("/api/card-user/apiPurchase/goods", {
          query: { ...paging, ...(keyword && { keyword }) },
          overlay: false,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const opened = info?.merchant?.apiPermission === "opened";
  const api = useQuery({
    queryKey: ["apiPurchase", "apiInfo"],
    queryFn: async () =>
      unwrap(await http.get<ApiInfoReply>("/api/card-brander/brander/api", { overlay: false, toast: false })),
    enabled: opened,
    retry: false,
  });
  const appKey = api.data?.appKey ?? null;
  const sup = info?.balances?.sup;
  const reserve = info?.balances?.reserve;
  const [toppingUp, setToppingUp] = useState(false);
  const [example, setExample] = useState<ApiPurchaseGoods | null>(null);
  const [exampleNo] = useState(() => `API${Date.now()}`);
  const short = (g: ApiPurchaseGoods) => sup !== undefined && sup.amount < g.price.amount;

  const columns: TableColumnsType<ApiPurchaseGoods> = [
    { title: t("apiPurchase.col.goodsId"), dataIndex: "goodsId", width: 80 },
    {
      title: t("apiPurchase.col.code"),
      dataIndex: "code",
      width: 140,
      render: (v: string) => <Typography.Text copyable={{ text: v }}>{v}</Typography.Text>,
    },
    {
      title: t("order.col.goods"),
      key: "goods",
      width: 220,
      render: (_: unknown, g) => (
        <Space direction="vertical" size={0}>
          <span>
            {g.name}{" "}
            <Tag style={{ marginInlineStart: 4 }}>
              {t(g.fromStock ? "apiPurchase.kind.stock" : "apiPurchase.kind.topUp")}
            </Tag>
          </span>
          <Typography.Text type="secondary">{`${g.brandName} · ${g.supplierName}`}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t("apiPurchase.col.price"),
      dataIndex: "price",
      align: "right",
      width: 100,
      render: (_: unknown, g) => (
        <Space direction="vertical" size={0} align="end">
          <span>{formatMoney(g.price)}</span>
          {g.price.amount !== g.listPrice.amount && (
            <Typography.Text type="secondary" delete>
              {formatMoney(g.listPrice)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t("apiPurchase.col.stock"),
      dataIndex: "stock",
      align: "right",
      width: 60,
      render: (v: number, g) => (g.fromStock ? v : "-"),
    },
    {
      title: t("apiPurchase.col.method"),
      key: "method",
      width: 260,
      render: () => (
        <Typography.Text
          code
          style={{ whiteSpace: "nowrap" }}
        >{`${OPEN_API_ORDER_METHOD} ${OPEN_API_ORDER_PATH}`}</Typography.Text>
      ),
    },
    {
      title: t("funds.col.actions"),
      key: "actions",
      width: 150,
      fixed: "right",
      render: (_: unknown, g) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setExample(g)} data-testid={`api-example-${g.goodsId}`}>
            {t("apiPurchase.example")}
          </Button>
          {short(g) && (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => setToppingUp(true)}
              disabled={!reserve?.amount}
              data-testid={`api-topup-${g.goodsId}`}
            >
              {t("apiPurchase.supShort")}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title={t("apiPurchase.title")}
      extra={
        sup && (
          <Space wrap>
            <Typography.Text data-testid="api-sup-balance">
              {t("order.supBalance", { amount: formatMoney(sup) })}
            </Typography.Text>
            <Button size="small" onClick={() => setToppingUp(true)} disabled={!reserve?.amount} data-testid="api-topup">
              {t("funds.reserveTransfer")}
            </Button>
            <Link to={`${sale}/RechargeSheet`}>{t("funds.menu.topUp")}</Link>
          </Space>
        )
      }
    >
      {!opened && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={t("apiPurchase.notOpened")}
          action={<Link to={`${sale}/ApiSecurity`}>{t("apiPurchase.openApi")}</Link>}
          data-testid="api-not-opened"
        />
      )}
      <Space style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t("apiPurchase.search")}
          style={{ width: 320 }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPaging((p) => ({ ...p, page: 1 }));
          }}
          data-testid="api-search"
        />
        {/* The goods ids and SKU codes an integration needs, as a file. */}
        <ExportButton
          columns={columns}
          rows={goods.data?.list ?? []}
          name={t("apiPurchase.title")}
          testId="api-export"
        />
      </Space>
      <Table<ApiPurchaseGoods>
        rowKey="goodsId"
        size="small"
        columns={columns}
        dataSource={goods.data?.list ?? []}
        loading={goods.isFetching}
        scroll={{ x: 1010 }}
        locale={{ emptyText: t("apiPurchase.empty") }}
        pagination={{
          current: paging.page,
          pageSize: paging.pageSize,
          total: goods.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          onChange: (page, pageSize) => setPaging({ page, pageSize }),
        }}
        data-testid="api-goods-table"
      />
      {example && (
        <Modal
          open
          width={760}
          title={`${example.name} · ${t("apiPurchase.example")}`}
          onCancel={() => setExample(null)}
          footer={null}
          destroyOnHidden
        >
          <Typography.Paragraph type="secondary">{t("apiPurchase.exampleHint")}</Typography.Paragraph>
          <Typography.Paragraph
            copyable={{
              text: exampleOrderRequest(example, { origin: window.location.origin, appKey, orderNo: exampleNo }),
            }}
          >
            <pre data-testid="api-example-text" style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", margin: 0 }}>
              {exampleOrderRequest(example, { origin: window.location.origin, appKey, orderNo: exampleNo })}
            </pre>
          </Typography.Paragraph>
          {short(example) && (
            <Alert
              type="warning"
              showIcon
              message={t("apiPurchase.supShortHint", { amount: formatMoney(example.price) })}
            />
          )}
        </Modal>
      )}
      {toppingUp && reserve && <SupTopUpDialog reserve={reserve} onClose={() => setToppingUp(false)} />}
    </Card>
  );
}
