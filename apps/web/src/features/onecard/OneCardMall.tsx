import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Col, Empty, Flex, Pagination, Row, Spin, Tag, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { ONECARD_KINDS, PAGE_SIZES, type OcProduct } from "@tessera/contracts";
import { queryKeys } from "../../api/queryKeys";
import { isPageSize, mergeListState, readListState } from "../../ui/list/listQuery";
import { SearchBar } from "../../ui/list/SearchBar";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { ocKeys, ocSaleApi } from "./api";
import { BuyDialog } from "./BuyDialog";
import { validityText } from "./labels";
import { mallQuery } from "./query";

const KIND_COLOR = {
  face_value: "linear-gradient(135deg, #1d39c4, #597ef7)",
  discount: "linear-gradient(135deg, #d4380d, #fa8c16)",
  guide: "linear-gradient(135deg, #08979c, #36cfc9)",
} as const;

/**
 * `/sale/OneCardMall`: the card products brands offer to purchasers, as a shop window of cards (face
 * value, price, discount, validity, stock), with the same filters and Buy as OneCardPurchase.
 */
export default function OneCardMall() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const q = mallQuery(state);
  const { data, isFetching } = useQuery({
    queryKey: ocKeys.mall(q),
    queryFn: () => ocSaleApi.mall(q),
    placeholderData: (p) => p,
  });
  const [buying, setBuying] = useState<OcProduct | null>(null);
  const go = (next: typeof state) => setParams((current) => mergeListState(current, next));

  return (
    <Flex vertical gap={16}>
      <PageHint id="sale.OneCardMall" title={t("onecard.bo.page.OneCardMall")} description={t("onecard.bo.hintMall")} />
      <Card variant="borderless">
        <SearchBar
          values={state.values}
          onSearch={(values) => go({ page: 1, pageSize: state.pageSize, values })}
          onReset={() => go({ page: 1, pageSize: state.pageSize, values: {} })}
          input={{ keys: [{ value: "keyword", label: t("onecard.bo.name") }] }}
          select={{
            keys: [
              {
                value: "kind",
                label: t("onecard.bo.kindLabel"),
                options: ONECARD_KINDS.map((k) => ({ value: k, label: t(`onecard.bo.kind.${k}`) })),
              },
            ],
          }}
        />
      </Card>
      <Spin spinning={isFetching}>
        {data && data.list.length === 0 ? (
          <Card variant="borderless">
            <Empty />
          </Card>
        ) : (
          <Row gutter={[16, 16]}>
            {data?.list.map((p) => (
              <Col key={p.id} xs={24} md={12} xl={8} xxl={6}>
                <Card variant="borderless" styles={{ body: { padding: 0 } }} data-testid="mall-card">
                  <div
                    style={{ background: KIND_COLOR[p.kind], color: "#fff", padding: 16, borderRadius: "8px 8px 0 0" }}
                  >
                    <Flex justify="space-between" align="start" gap={8}>
                      <Typography.Text strong style={{ color: "#fff" }} ellipsis>
                        {p.branderName}
                      </Typography.Text>
                      <Tag>{t(`onecard.bo.kind.${p.kind}`)}</Tag>
                    </Flex>
                    <div style={{ fontSize: 26, fontWeight: 700, margin: "8px 0 0" }}>{formatMoney(p.faceValue)}</div>
                    <Typography.Text style={{ color: "#fff", opacity: 0.9 }} ellipsis>
                      {p.name}
                    </Typography.Text>
                  </div>
                  <Flex vertical gap={4} style={{ padding: 16 }}>
                    <Flex justify="space-between">
                      <Typography.Text type="secondary">{t("onecard.bo.salePrice")}</Typography.Text>
                      <Typography.Text strong>{formatMoney(p.salePrice)}</Typography.Text>
                    </Flex>
                    <Flex justify="space-between">
                      <Typography.Text type="secondary">{t("onecard.bo.validity")}</Typography.Text>
                      <Typography.Text>{validityText(t, p.validity)}</Typography.Text>
                    </Flex>
                    <Flex justify="space-between">
                      <Typography.Text type="secondary">{t("onecard.bo.stock")}</Typography.Text>
                      <Typography.Text>{p.stock}</Typography.Text>
                    </Flex>
                    {p.scope && (
                      <Typography.Text type="secondary" ellipsis>
                        {t("onecard.bo.scope")}: {p.scope}
                      </Typography.Text>
                    )}
                    <Button
                      type="primary"
                      block
                      disabled={p.stock === 0}
                      style={{ marginTop: 8 }}
                      onClick={() => setBuying(p)}
                    >
                      {t("onecard.bo.buy")}
                    </Button>
                  </Flex>
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </Spin>
      <Flex justify="end">
        <Pagination
          current={state.page}
          pageSize={state.pageSize}
          total={data?.total ?? 0}
          pageSizeOptions={PAGE_SIZES.map(String)}
          showSizeChanger
          showTotal={(total) => t("list.total", { total })}
          onChange={(page, size) =>
            go({
              page: size === state.pageSize ? page : 1,
              pageSize: isPageSize(size) ? size : state.pageSize,
              values: state.values,
            })
          }
        />
      </Flex>
      {buying && (
        <BuyDialog
          product={buying}
          onClose={() => setBuying(null)}
          onBought={() => {
            setBuying(null);
            void qc.invalidateQueries({ queryKey: ocKeys.all });
            void qc.invalidateQueries({ queryKey: queryKeys.userInfoAll });
          }}
        />
      )}
    </Flex>
  );
}
