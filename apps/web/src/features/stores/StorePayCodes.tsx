import { useQuery } from "@tanstack/react-query";
import { Button, Divider, List, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { PayCode } from "@tessera/contracts";
import { collectionApi, collectionKeys } from "../collection/api";
import { PayCodeDialog } from "../collection/PayCodeDialog";

/** The collection codes bound to a store (made on receiptB), each opening its QR; shown with the store's shop code. */
export function StorePayCodes({ storeId }: { storeId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<PayCode | null>(null);
  const q = useQuery({
    queryKey: [...collectionKeys.all, "storeCodes", storeId],
    queryFn: () => collectionApi.storeCodes(storeId),
  });
  return (
    <div style={{ width: "100%" }} data-testid="store-paycodes">
      <Divider plain>{t("stores.payCodes")}</Divider>
      {q.data && q.data.list.length === 0 ? (
        <Typography.Text type="secondary">
          {t("stores.noPayCodes")} <Link to="/business/receiptB">{t("collection.title.receipt")}</Link>
        </Typography.Text>
      ) : (
        <List
          size="small"
          loading={q.isPending}
          dataSource={q.data?.list ?? []}
          renderItem={(c) => (
            <List.Item
              actions={[
                <Button key="show" type="link" size="small" onClick={() => setOpen(c)}>
                  {t("stores.showCode")}
                </Button>,
              ]}
            >
              {c.name}
            </List.Item>
          )}
        />
      )}
      {open && <PayCodeDialog code={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
