import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Flex, Form, Modal, Radio, Select, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { catalogApi, catalogKeys } from "../catalog/api";
import { storeApi, storeKeys, writeOffApi } from "./api";

/**
 * The "redeemable stores" dialog: where a goods' codes (vouchers, coupons) may be redeemed — all the
 * brand's stores (the default) or only the stores chosen. A code of the goods presented at another store
 * is refused there ("not valid at this store"), and `product/shop/verify` answers the same. Opened from
 * the verification page the brand picks the goods; opened from a row of its goods list (`goods`) the
 * goods is that row's and cannot be changed.
 */
export function GoodsStoresDialog({
  open,
  onClose,
  goods: fixed,
}: {
  open: boolean;
  onClose: () => void;
  goods?: { id: string; name: string };
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState("");
  const [chosen, setGoodsId] = useState<string | undefined>();
  const goodsId = fixed?.id ?? chosen;
  // The brand's edits over what the server holds for the chosen goods (null: nothing changed yet).
  const [edit, setEdit] = useState<{ all: boolean; storeIds: string[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const goodsQuery = { page: 1, pageSize: 50, keyword: keyword || undefined };
  const goods = useQuery({
    queryKey: catalogKeys.products(goodsQuery),
    queryFn: () => catalogApi.products(goodsQuery),
    enabled: open && !fixed,
  });
  const goodsOptions = fixed
    ? [{ value: fixed.id, label: `${fixed.name} (${fixed.id})` }]
    : (goods.data?.list ?? []).map((g) => ({ value: String(g.id), label: `${g.name} (${g.id})` }));
  const storesQuery = { page: 1, pageSize: 1000 };
  const stores = useQuery({
    queryKey: storeKeys.list("brand", storesQuery),
    queryFn: () => storeApi.list(storesQuery),
    enabled: open,
  });
  const current = useQuery({
    queryKey: ["stores", "goodsStores", goodsId],
    queryFn: () => writeOffApi.goodsStores(goodsId ?? ""),
    enabled: open && goodsId !== undefined,
  });

  const all = edit?.all ?? current.data?.all ?? true;
  const storeIds = edit?.storeIds ?? current.data?.stores.map((s) => s.id) ?? [];

  const save = async () => {
    if (!goodsId) {
      setError(t("writeoff.chooseGoods"));
      return;
    }
    setBusy(true);
    const r = await writeOffApi.setGoodsStores(goodsId, { all, storeIds: all ? [] : storeIds });
    setBusy(false);
    if (!r) return;
    if (!r.ok) {
      setError(r.msg);
      return;
    }
    qc.setQueryData(["stores", "goodsStores", goodsId], r.data);
    setEdit(null);
    void message.success(t("writeoff.redeemableSaved"));
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t("writeoff.redeemableStores")}
      onCancel={onClose}
      onOk={() => void save()}
      okButtonProps={{ loading: busy, disabled: !goodsId, "data-testid": "goods-stores-save" }}
      destroyOnHidden
      width={560}
    >
      <Typography.Paragraph type="secondary">{t("writeoff.redeemableHint")}</Typography.Paragraph>
      <Form layout="vertical" requiredMark={false}>
        <Form.Item label={t("writeoff.goods")} required>
          <Select
            showSearch={fixed ? false : { filterOption: false, onSearch: setKeyword }}
            disabled={fixed !== undefined}
            value={goodsId}
            onChange={(v: string) => {
              setGoodsId(v);
              setEdit(null);
              setError(null);
            }}
            placeholder={t("writeoff.chooseGoods")}
            aria-label={t("writeoff.goods")}
            loading={goods.isFetching}
            options={goodsOptions}
            data-testid="goods-stores-goods"
          />
        </Form.Item>
        <Form.Item label={t("writeoff.redeemableAt")}>
          <Radio.Group
            value={all}
            onChange={(e) => setEdit({ all: e.target.value === true, storeIds })}
            disabled={!goodsId}
          >
            <Radio value={true}>{t("writeoff.allStores")}</Radio>
            <Radio value={false}>{t("writeoff.chosenStores")}</Radio>
          </Radio.Group>
        </Form.Item>
        {!all && (
          <Form.Item label={t("writeoff.stores")}>
            <Select
              mode="multiple"
              value={storeIds}
              onChange={(ids: string[]) => setEdit({ all, storeIds: ids })}
              optionFilterProp="label"
              placeholder={t("writeoff.chooseStoresHint")}
              aria-label={t("writeoff.stores")}
              options={(stores.data?.list ?? []).map((s) => ({ value: s.id, label: s.name }))}
              data-testid="goods-stores-stores"
            />
          </Form.Item>
        )}
      </Form>
      {error && (
        <Flex>
          <Alert type="error" showIcon title={error} style={{ width: "100%" }} />
        </Flex>
      )}
    </Modal>
  );
}
