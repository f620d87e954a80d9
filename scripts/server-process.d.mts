export declare const MALLOC_DEFAULTS: Record<string, string>;
export declare function serverProcess(env?: NodeJS.ProcessEnv): {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
};
export declare const EMBEDDED_V8_FLAGS: string[];
