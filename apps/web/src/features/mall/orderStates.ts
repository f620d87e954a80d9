import type { MallOrder } from "@tessera/contracts";

/** Tag colours of a mall order's states, for the back-office's order list (antd Tag colours). */
export const STATE_COLOURS: Record<MallOrder["state"], string> = {
  paid: "blue",
  delivering: "processing",
  delivered: "green",
  failed: "red",
  refunded: "default",
};
