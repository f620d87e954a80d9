import type { Money } from "@tessera/contracts";
import { useTranslation } from "react-i18next";
import { useReserveTransfer } from "./api";
import { AmountDialog } from "./AmountDialog";

/**
 * Tops SUP up in place from the reserve account (marketplace screen 11's top-up dialog), where a purchase
 * finds SUP short: the purchase form and the API purchase table.
 */
export function SupTopUpDialog({ reserve, onClose }: { reserve: Money; onClose: () => void }) {
  const { t } = useTranslation();
  const transfer = useReserveTransfer();
  return (
    <AmountDialog
      title={t("funds.reserveTransfer")}
      currency={reserve.currency}
      available={reserve}
      successText={t("funds.transferDone")}
      onSubmit={({ amount, requestKey }) => transfer.mutateAsync({ amount, requestKey })}
      onClose={onClose}
    />
  );
}
