export { MediaService, type MediaDeps } from "./service";
export { mediaRoutes, ecommerceMediaRoutes } from "./routes";
