export { CatalogService, type CatalogDeps } from "./service";
export { catalogBranderRoutes, catalogUserRoutes } from "./routes";
export { adjustStock, goodsNames, lockGoodsForStock, type LowStock, type StockGoods } from "./stock";
export { goodsForPurchase, type PurchasableGoods } from "./purchase";
