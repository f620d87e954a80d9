export { CatalogService, type CatalogDeps } from "./service";
export { catalogBranderRoutes, catalogServicerRoutes, catalogUserRoutes } from "./routes";
export { adjustStock, goodsMatching, goodsNames, lockGoodsForStock, sellStock, saleOutcome, sellStockCte, type LowStock, type StockGoods } from "./stock";
export { goodsForPurchase, PURCHASABLE_GOODS_COLUMNS, toPurchasableGoods, type PurchasableGoods, type PurchasableGoodsRow } from "./purchase";
