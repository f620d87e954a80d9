export { callbackLogRoutes, openApiRoutes, type OpenApiDeps } from "./routes";
export { CallbackService, CALLBACK_BACKOFF_SECONDS, startCallbackDispatcher } from "./callbacks";
export { canonicalString, sign } from "./signature";
