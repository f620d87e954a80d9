export declare function buildServer(): Promise<void>;
