import type { Docking } from "@tessera/contracts";

/** Whose signature a docking agreement still awaits, as a message key (issue 25 item 7: say whose). */
export function agreementStateKey(
  side: Docking["side"],
  d: Pick<Docking, "purchaserSigned" | "supplierSigned">,
): string {
  const mine = side === "purchaser" ? d.purchaserSigned : d.supplierSigned;
  const theirs = side === "purchaser" ? d.supplierSigned : d.purchaserSigned;
  if (mine && theirs) return "docking.signedBoth";
  if (mine) return "docking.awaitCounterpart";
  if (theirs) return "docking.awaitMine";
  return "docking.awaitBoth";
}
