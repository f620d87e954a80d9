import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports";

const repoRoot = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts the real server (`apps/server/src/main.ts`) on a fresh data folder and waits for /healthz. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-bench-"));
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(repoRoot, "node_modules/tsx/dist/cli.mjs"), path.join(repoRoot, "apps/server/src/main.ts")],
    { env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env }, stdio: ["ignore", "ignore", "inherit"] },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("server did not start within 60 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
