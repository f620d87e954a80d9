import { useQuery } from "@tanstack/react-query";
import { App, Button, Empty, Popconfirm, Space, type TableColumnsType } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { ServiceBinding, ServiceKind } from "@tessera/contracts";
import { RealNameTag } from "../accounts/RealNameTag";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { servedQuery, useEndBinding } from "./api";
import { formatTime } from "../../ui/time";

export interface ServedMerchantsProps {
  pageId: string;
  /** Which bindings the list shows: brands (BrandsList) or vendors (VendorList); all when absent. */
  kind?: ServiceKind;
  /** i18n keys of the page hint's title and text. */
  hintTitleKey: string;
  hintKey: string;
  /** Row actions of this list, besides ending the binding (which every list offers). */
  actions?: (row: ServiceBinding) => ReactNode;
}

/**
 * The merchants bound to this provider, as a searchable list (providers/BrandsList, VendorList): id,
 * name, real-name state, when bound; the provider may end a binding, which also ends its brand tokens.
 */
export function ServedMerchants({ pageId, hintTitleKey, hintKey, actions, kind }: ServedMerchantsProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const end = useEndBinding();

  const columns: TableColumnsType<ServiceBinding> = [
    { title: t("providers.list.merchantId"), dataIndex: "merchantId", width: 130 },
    { title: t("providers.list.merchantName"), dataIndex: "merchantName" },
    {
      title: t("providers.list.realName"),
      dataIndex: "merchantRealNameState",
      width: 140,
      render: (s: ServiceBinding["merchantRealNameState"]) => <RealNameTag state={s} />,
    },
    {
      title: t("providers.list.boundAt"),
      dataIndex: "boundAt",
      width: 170,
      render: (v: string) => formatTime(v),
    },
    {
      title: t("providers.list.actions"),
      width: 220,
      render: (_: unknown, row) => (
        <Space size={4} wrap>
          {actions?.(row)}
          <Popconfirm
            title={t("providers.list.unbindConfirm")}
            okText={t("providers.list.confirm")}
            cancelText={t("providers.list.cancel")}
            onConfirm={() => {
              void end.mutateAsync(row.id).then((r) => r?.ok && void message.success(t("providers.list.unbound")));
            }}
          >
            <Button size="small" type="link" danger>
              {t("providers.list.unbind")}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <ListPage<ServiceBinding>
      header={<PageHint id={pageId} title={t(hintTitleKey)} description={t(hintKey)} />}
      empty={kind ? <OtherKindHint kind={kind} /> : undefined}
      search={{ input: { keys: [{ value: "keyword", label: t("providers.list.keyword") }] } }}
      columns={columns}
      rowKey="id"
      query={(state) => {
        const keyword = state.values.inpVal?.trim();
        return servedQuery({
          page: state.page,
          pageSize: state.pageSize,
          ...(keyword ? { keyword } : {}),
          ...(kind ? { kind } : {}),
        });
      }}
    />
  );
}

/**
 * An empty brands or vendors list that says where this provider's other bindings are: a supplier bound
 * as a brand is in the brands list, not among the merchants (a newcomer looked for it there).
 */
function OtherKindHint({ kind }: { kind: ServiceKind }) {
  const { t } = useTranslation();
  const other: ServiceKind = kind === "brand" ? "vendor" : "brand";
  const { data } = useQuery(servedQuery({ page: 1, pageSize: 20, kind: other }));
  const count = data?.total ?? 0;
  return (
    <Empty
      description={
        count > 0 ? (
          <span data-testid="served-elsewhere">
            {t(`providers.list.elsewhere.${other}`, { count })}{" "}
            <Link to={other === "brand" ? "/providers/BrandsList" : "/providers/VendorList"}>
              {t(`providers.menu.${other === "brand" ? "brands" : "vendors"}`)}
            </Link>
          </span>
        ) : (
          t("providers.list.none")
        )
      }
    />
  );
}
