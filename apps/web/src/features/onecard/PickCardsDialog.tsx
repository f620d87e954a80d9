import { App, Modal } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { OnecardState } from "@tessera/contracts";
import { CardPicker } from "./CardPicker";
import { useSaleOptions } from "./useSaleOptions";

/** A dialog that picks cards in one state, with optional fields under the list, and submits the ids. */
export function PickCardsDialog({
  title,
  okText,
  state,
  children,
  onSubmit,
  onClose,
}: {
  title: string;
  okText: string;
  state: OnecardState;
  children?: ReactNode;
  /** Resolves true when done (the dialog closes). */
  onSubmit: (ids: string[]) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const saleOptions = useSaleOptions();
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (selected.length === 0) {
      void message.warning(t("onecard.bo.chooseFirst"));
      return;
    }
    setBusy(true);
    try {
      if (await onSubmit(selected)) onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={title}
      width={920}
      okText={okText}
      onOk={() => void submit()}
      okButtonProps={{ "data-testid": "pick-submit" }}
      confirmLoading={busy}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
    >
      <CardPicker state={state} selected={selected} onChange={setSelected} saleOptions={saleOptions} />
      {children}
    </Modal>
  );
}
