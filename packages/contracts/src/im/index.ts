export * from "./constants";
export * from "./errors";
export * from "./message";
export * from "./schemas";
