import type { ModuleHost } from "../../platform/module";
import { catalogBranderRoutes, catalogServicerRoutes, catalogUserRoutes } from "./routes";
import { CatalogService, type WhoMayBuy } from "./service";

export { CatalogService, type CatalogDeps, type WhoMayBuy } from "./service";
export {
  adjustStock,
  goodsMatching,
  goodsNames,
  lockGoodsForStock,
  ownGoodsChoices,
  sellStock,
  saleOutcome,
  sellStockCte,
  type LowStock,
  type StockGoods,
} from "./stock";
export {
  goodsForPurchase,
  PURCHASABLE_GOODS_COLUMNS,
  toPurchasableGoods,
  type PurchasableGoods,
  type PurchasableGoodsRow,
} from "./purchase.repo";
export { brandsOfMerchants } from "./provider-reads";

export interface CatalogModule {
  catalog: CatalogService;
}

/**
 * Brands and goods: mounts the brand owner's calls under /api/card-brander, the card user's under
 * /api/card-user and the service provider's view under /api/card-servicer.
 */
export async function registerCatalog(
  host: ModuleHost,
  needs: {
    serves: (providerId: number, merchantId: number) => Promise<boolean>;
    /** Who may buy what and at which price (docking's and purchasing's rules), for the goods lists. */
    whoMayBuy: WhoMayBuy;
  },
): Promise<CatalogModule> {
  const { ctx, db, guard } = host;
  const catalog = new CatalogService({
    db,
    storage: ctx.storage,
    clock: ctx.clock,
    serves: needs.serves,
    whoMayBuy: needs.whoMayBuy,
  });
  await host.mount("/api/card-brander", catalogBranderRoutes({ catalog, guard }));
  await host.mount("/api/card-user", catalogUserRoutes({ catalog, guard }));
  await host.mount("/api/card-servicer", catalogServicerRoutes({ catalog, guard }));
  return { catalog };
}
