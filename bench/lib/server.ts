import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildServer } from "../../scripts/build-server.mjs";
import { serverProcess } from "../../scripts/server-process.mjs";
import { freePort } from "./ports";

export interface RunningServer {
  baseUrl: string;
  /** The server process's own pid (for its memory). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts the real server as `npm start` runs it (the bundle scripts/build-server.mjs makes, on plain node) on
 * a fresh data folder and waits for /healthz.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  await buildServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-bench-"));
  const port = await freePort();
  // DEV_ROUTES: the benches register merchants with the e-mail code from the dev outbox.
  const run = serverProcess({
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    DEV_ROUTES: "true",
    ...env,
  });
  const child: ChildProcess = spawn(run.command, run.args, { env: run.env, stdio: ["ignore", "ignore", "inherit"] });
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
    pid: child.pid ?? 0,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
