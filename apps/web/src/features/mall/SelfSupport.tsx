import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, InputNumber, Modal, Select, Switch, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SelfGoods } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { filtersOf, mallApi, mallKeys, minor } from "./api";

/**
 * `/sale/SelfSupport`: the purchaser's own goods in its mall: chosen from the goods it may buy, each with
 * its selling price; the own stock is the codes it bought and the mall has not sold (the rest is bought
 * from the supplier when a customer orders).
 */
export default function SelfSupport() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [goodsId, setGoodsId] = useState<string>();
  const [price, setPrice] = useState<number | null>(null);
  const candidates = useQuery({
    queryKey: mallKeys.list("candidates", {}),
    queryFn: () => mallApi.candidates({ page: 1, pageSize: 1000 }),
    enabled: open,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: mallKeys.all });
  const columns: TableColumnsType<SelfGoods> = [
    { title: t("mall.bo.goodsName"), dataIndex: "name", ellipsis: true },
    { title: t("mall.brand"), dataIndex: "brandName", width: 140 },
    {
      title: t("mall.deliveryLabel"),
      dataIndex: "delivery",
      width: 110,
      render: (d: SelfGoods["delivery"]) => <Tag>{t(`mall.delivery.${d}`)}</Tag>,
    },
    {
      title: t("mall.bo.faceValue"),
      dataIndex: "faceValue",
      width: 110,
      align: "right",
      render: (m: SelfGoods["faceValue"]) => formatMoney(m),
    },
    {
      title: t("mall.bo.cost"),
      dataIndex: "cost",
      width: 110,
      align: "right",
      render: (m: SelfGoods["cost"]) => formatMoney(m),
    },
    {
      title: t("mall.bo.price"),
      dataIndex: "price",
      width: 110,
      align: "right",
      render: (m: SelfGoods["price"]) => formatMoney(m),
    },
    { title: t("mall.bo.ownStock"), dataIndex: "ownStock", width: 100, align: "right" },
    {
      title: t("mall.bo.onSale"),
      dataIndex: "onSale",
      width: 90,
      render: (v: boolean, r) => (
        <Switch
          size="small"
          checked={v}
          onChange={(on) => void mallApi.updateSelf(r.id, { onSale: on }).then(refresh)}
          aria-label={t("mall.bo.onSale")}
        />
      ),
    },
  ];
  const add = async (confirmHighPrice = false) => {
    if (!goodsId) return;
    const r = await mallApi.addSelf({ goodsId, price: minor(price), confirmHighPrice });
    if (!r?.ok) {
      // A price far above the face value is saved only once the merchant confirms it (and it is logged).
      const data = r?.data;
      if (!confirmHighPrice && data?.field === "confirmHighPrice") {
        modal.confirm({
          title: t("mall.bo.highPriceTitle"),
          content: r?.msg,
          okText: t("mall.bo.highPriceOk"),
          onOk: () => add(true),
        });
        return;
      }
      void message.error(r?.msg ?? "");
      return;
    }
    setOpen(false);
    void refresh();
  };
  return (
    <>
      <ListPage<SelfGoods>
        rowKey="id"
        columns={columns}
        scrollX={1100}
        search={{
          add: { label: t("mall.bo.addGoods"), onClick: () => setOpen(true) },
          input: { keys: [{ value: "keyword", label: t("mall.bo.goodsName") }] },
        }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize, ...filtersOf(state.values, ["keyword"]) };
          return { queryKey: mallKeys.list("self", q), queryFn: () => mallApi.selfGoods(q) };
        }}
      />
      <Modal
        open={open}
        title={t("mall.bo.addGoods")}
        onCancel={() => setOpen(false)}
        onOk={() => void add()}
        okButtonProps={{ disabled: !goodsId || !price }}
      >
        <Select
          showSearch
          style={{ width: "100%", marginBottom: 12 }}
          placeholder={t("mall.bo.chooseGoods")}
          value={goodsId}
          onChange={setGoodsId}
          optionFilterProp="label"
          aria-label={t("mall.bo.chooseGoods")}
          options={(candidates.data?.list ?? [])
            .filter((c) => !c.inMall)
            .map((c) => ({ value: c.goodsId, label: `${c.name} · ${formatMoney(c.cost)}` }))}
        />
        <InputNumber
          style={{ width: "100%" }}
          min={0.01}
          precision={2}
          value={price}
          onChange={setPrice}
          addonBefore={t("mall.bo.price")}
          aria-label={t("mall.bo.price")}
        />
      </Modal>
    </>
  );
}
