export { CatalogService, type CatalogDeps } from "./service";
export { catalogBranderRoutes, catalogServicerRoutes, catalogUserRoutes } from "./routes";
export { adjustStock, goodsMatching, goodsNames, lockGoodsForStock, sellStock, type LowStock, type StockGoods } from "./stock";
export { goodsForPurchase, type PurchasableGoods } from "./purchase";
