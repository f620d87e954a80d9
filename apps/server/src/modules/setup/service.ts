import type { SetupChecklist } from "@tessera/contracts";
import type { Db } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import { collectionSetup } from "../collection";
import { approvedPurchasers } from "../docking";
import { mallStock } from "../mall";
import { mallAppSetup } from "../miniprogram";
import { cardSetup } from "../onecard";
import { storeSetup } from "../stores";
import { takeoutSetup } from "../takeout";

export interface SetupDeps {
  db: Db;
  clock: Clock;
}

/**
 * The home's setup checklist (issue 40, item 13; as Shopify's and Youzan's onboarding): for each capability a
 * merchant can switch on — stored-value cards, stores, takeout, payment collection, the mall — its steps in
 * order, each done or not, with the page where it is done. The first step not done is what comes next.
 * Read from each module's own books; nothing here is stored.
 */
export class SetupService {
  constructor(private readonly deps: SetupDeps) {}

  async checklist(merchantId: number): Promise<SetupChecklist> {
    const db = this.deps.db;
    const [cards, stores, purchasers, takeout, collection, app, mall] = await Promise.all([
      cardSetup(db, merchantId),
      storeSetup(db, merchantId),
      approvedPurchasers(db, merchantId, 1),
      takeoutSetup(db, merchantId),
      collectionSetup(db, merchantId),
      mallAppSetup(db, merchantId),
      mallStock(db, merchantId, this.deps.clock.now()),
    ]);
    return {
      capabilities: [
        {
          key: "cards",
          steps: [
            { key: "product", done: cards.products > 0, page: "/business/FaceValueCard" },
            { key: "issue", done: cards.batches > 0, page: "/business/FaceValueCard" },
            { key: "purchasers", done: purchasers.length > 0, page: "/business/ProcurementLiaison" },
            { key: "stores", done: stores.stores > 0, page: "/business/BrandStore" },
          ],
        },
        {
          key: "stores",
          steps: [
            { key: "store", done: stores.stores > 0, page: "/business/BrandStore" },
            { key: "clerk", done: stores.clerks > 0, page: "/business/BrandStore" },
          ],
        },
        {
          key: "takeout",
          steps: [
            { key: "shop", done: takeout.shop, page: "/business/TakeoutSet" },
            { key: "items", done: takeout.items > 0, page: "/business/ItemSet" },
            { key: "open", done: takeout.open, page: "/business/TakeoutSet" },
          ],
        },
        {
          key: "collection",
          steps: [
            { key: "apply", done: collection.applied, page: "/business/aggregateIncoming" },
            { key: "sign", done: collection.signed, page: "/business/aggregateIncoming" },
            { key: "code", done: collection.codes > 0, page: "/business/receiptB" },
          ],
        },
        {
          key: "mall",
          steps: [
            { key: "config", done: app.configs > 0, page: "/sale/EquityApplet" },
            { key: "authorize", done: app.authorized, page: "/sale/EquityApplet" },
            { key: "goods", done: mall.onSale > 0, page: "/sale/SelfSupport" },
            { key: "sms", done: mall.sms > 0, page: "/sale/SmsSendRecord" },
            { key: "release", done: app.released, page: "/sale/EquityApplet" },
          ],
        },
      ],
    };
  }
}
