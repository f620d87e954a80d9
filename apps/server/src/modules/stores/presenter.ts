import type { Currency, QrCode, QrKind, Redemption, SettlementDoc, Store } from "@tessera/contracts";
import { iso, money } from "../../platform/present";
import { regionText } from "../../platform/regions";
import type { StoreRowView } from "./repo";
import type { RedemptionRow } from "./writeoff.repo";

/** How the stores module shows its rows: stores, QR codes, redemptions and settlement documents. */

export { iso, money };

export function presentStore(r: StoreRowView): Store {
  return {
    id: String(r.id),
    branderId: String(r.brander_id),
    branderName: r.brander_name,
    name: r.name,
    provinceCode: r.province_code,
    cityCode: r.city_code,
    countyCode: r.county_code,
    region: regionText(r.province_code, r.city_code, r.county_code),
    address: r.address,
    lng: r.lng,
    lat: r.lat,
    openingHours: r.opening_hours,
    contactName: r.contact_name,
    contactPhone: r.contact_phone,
    state: r.state,
    districtId: r.district_id === null ? null : String(r.district_id),
    districtName: r.district_name,
    clerks: Number(r.clerks),
    createdAt: iso(r.created_at),
  };
}

export function presentQrCode(
  r: {
    id: number;
    kind: QrKind;
    name: string;
    store_id: number | null;
    store_name: string | null;
    token: string;
    created_at: Date;
  },
  origin: string,
): QrCode {
  return {
    id: String(r.id),
    kind: r.kind,
    name: r.name,
    storeId: r.store_id === null ? null : String(r.store_id),
    storeName: r.store_name,
    url: `${origin}/qr/${r.token}`,
    createdAt: iso(r.created_at),
  };
}

export function presentRedemption(r: RedemptionRow): Redemption {
  return {
    id: String(r.id),
    kind: r.source,
    branderId: String(r.brander_id),
    branderName: r.brander_name,
    storeId: String(r.store_id),
    storeName: r.store_name,
    clerkName: r.clerk_name ?? "",
    itemName: r.item_name,
    codeMask: r.code_mask,
    value: money(Number(r.value), r.currency),
    // What the settlement pays the brand for it: the voucher money waiting in the escrow. A card secret was
    // paid at sale and a one-card redemption at the card's activation, so they settle nothing (issue 37:
    // counting them again made the document say more than the ledger paid).
    settleAmount: money(Number(r.held_amount), r.currency),
    orderRef: r.order_ref,
    day: r.day,
    settled: r.doc_id !== null,
    docId: r.doc_id === null ? null : String(r.doc_id),
    createdAt: iso(r.created_at),
  };
}

export function presentDoc(r: {
  id: number;
  brander_id: number;
  brander_name: string;
  store_id: number;
  store_name: string;
  day: string;
  currency: Currency;
  count: number;
  value: number | string;
  amount: number | string;
  paid: number | string;
  state: "settled";
  created_at: Date;
}): SettlementDoc {
  return {
    id: String(r.id),
    branderId: String(r.brander_id),
    branderName: r.brander_name,
    storeId: String(r.store_id),
    storeName: r.store_name,
    day: r.day,
    count: r.count,
    value: money(Number(r.value), r.currency),
    // The settled amount is what the document paid out of the escrow (its ledger transaction); documents made
    // before issue 37 also summed card redemptions into `amount`, so the paid column is the one to trust.
    amount: money(Number(r.paid), r.currency),
    paid: money(Number(r.paid), r.currency),
    state: r.state,
    createdAt: iso(r.created_at),
  };
}
