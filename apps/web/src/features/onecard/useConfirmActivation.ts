import { App } from "antd";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import type { Money } from "@tessera/contracts";
import { confirmMoney } from "../../ui/confirmMoney";
import { formatMoney } from "../../ui/money";
import { ocSaleApi, type ActivateSelection } from "./api";

/**
 * Activation asks first (issue 37): the server tells what this selection would do (its cards, the price
 * paid that goes to the brand, the face value loaded; a selection it would refuse is refused here, before
 * any dialog), the purchaser confirms the amount and its effect, and only then the cards are activated
 * under `requestKey`. Resolves true when the preview was shown (the caller's busy state ends there).
 */
export function useConfirmActivation(): (
  sel: ActivateSelection,
  requestKey: string,
  onActivated: (r: { count: number; amount: Money }) => void,
) => Promise<boolean> {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return useCallback(
    async (sel, requestKey, onActivated) => {
      const preview = await ocSaleApi.activationPreview(sel);
      if (!preview?.ok) return false;
      const { count, amount, faceValue } = preview.data;
      confirmMoney(modal, {
        action: t("onecard.bo.activateCards", { count }),
        amount,
        effect: t("onecard.bo.activateEffect", { amount: formatMoney(amount), faceValue: formatMoney(faceValue) }),
        testId: "activate-confirm",
        onOk: async () => {
          const r = await ocSaleApi.activate(sel, requestKey);
          if (r?.ok) onActivated(r.data);
        },
      });
      return true;
    },
    [modal, t],
  );
}
