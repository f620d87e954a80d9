import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Drawer, Flex, QRCode, Select, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Clerk, Store } from "@tessera/contracts";
import { storeApi, storeKeys } from "./api";

/** A store's clerks: sub-accounts bound to it (a sub-account works at one store; binding moves it). */
export function ClerksDrawer({ store, onClose }: { store: Store; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [chosen, setChosen] = useState<string | undefined>();
  const clerks = useQuery({ queryKey: storeKeys.clerks(store.id), queryFn: () => storeApi.clerks(store.id) });
  const subs = useQuery({ queryKey: ["stores", "subs"], queryFn: () => storeApi.subAccounts() });
  const verifyUrl = `${window.location.origin}/verify`;
  const refresh = () => void qc.invalidateQueries({ queryKey: storeKeys.all });

  const bind = async () => {
    if (!chosen) return;
    const r = await storeApi.bindClerk(store.id, chosen);
    if (r?.ok) {
      void message.success(t("stores.clerkBoundNext"));
      setChosen(undefined);
      refresh();
    }
  };
  const unbind = async (c: Clerk) => {
    const r = await storeApi.unbindClerk(store.id, c.passportId);
    if (r?.ok) refresh();
  };

  return (
    <Drawer open size={560} title={`${t("stores.clerks")} · ${store.name}`} onClose={onClose}>
      <Flex gap={8} style={{ marginBottom: 16 }}>
        <Select
          style={{ flex: 1 }}
          value={chosen}
          onChange={setChosen}
          placeholder={t("stores.chooseSub")}
          aria-label={t("stores.chooseSub")}
          options={(subs.data?.list ?? []).map((s) => ({ value: s.passportId, label: `${s.name} (${s.email})` }))}
        />
        <Button type="primary" disabled={!chosen} onClick={() => void bind()} data-testid="clerk-bind">
          {t("stores.bindClerk")}
        </Button>
      </Flex>
      <Table<Clerk>
        rowKey="passportId"
        size="small"
        pagination={false}
        loading={clerks.isFetching}
        dataSource={clerks.data ?? []}
        columns={[
          { title: t("stores.clerkName"), dataIndex: "name" },
          { title: t("stores.clerkEmail"), dataIndex: "email" },
          {
            title: t("stores.actions"),
            key: "actions",
            width: 90,
            render: (_: unknown, c) => (
              <Button type="link" size="small" danger onClick={() => void unbind(c)}>
                {t("stores.unbind")}
              </Button>
            ),
          },
        ]}
      />
      {/* Where a clerk goes next (issue 40, item 11): the verification page, opened on their phone. */}
      <Card size="small" style={{ marginTop: 16 }} title={t("stores.verifyLinkTitle")} data-testid="verify-link">
        <Flex gap={16} align="center">
          <QRCode value={verifyUrl} size={120} bordered={false} />
          <Flex vertical gap={8}>
            <Typography.Text>{t("stores.verifyLinkHint")}</Typography.Text>
            <Typography.Text copyable code>
              {verifyUrl}
            </Typography.Text>
          </Flex>
        </Flex>
      </Card>
    </Drawer>
  );
}
