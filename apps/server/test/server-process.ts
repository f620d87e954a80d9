import { spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "./ports";

/** A real server process (src/main.ts through tsx) on a free port, for tests that kill it. */
export interface ServerProcess {
  base: string;
  /** Kills the process (SIGKILL by default) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const serverDir = path.resolve(import.meta.dirname, "..");

/**
 * Starts the server with the test's environment on top of this one's (the database URL, the data
 * folder, the secret key when the test's own app must read what the process writes) and waits for
 * /healthz. Throws when the process exits or does not answer within a minute.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    // DEV_ROUTES: such tests read e-mail codes from the dev outbox, as startTestApp's do.
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "silent", DEV_ROUTES: "true", ...env },
    stdio: "ignore",
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      break;
    }
    if (Date.now() > deadline) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    async kill(signal = "SIGKILL") {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill(signal);
      await exited;
    },
  };
}
