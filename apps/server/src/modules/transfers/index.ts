export { TransfersService, type TransferCodes } from "./service";
export { transferRoutes } from "./routes";
