export { openApiRoutes, type OpenApiDeps } from "./routes";
export { canonicalString, sign } from "./signature";
