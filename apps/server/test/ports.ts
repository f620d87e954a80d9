import { createServer } from "node:net";

/**
 * A TCP port free on 127.0.0.1 right now, chosen by the kernel, for a test that starts a server process.
 * A port picked at random may be the local port of one of the machine's own connections (a bench leaves
 * thousands in TIME-WAIT), and listening on it then fails with EADDRINUSE.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      const port = typeof address === "object" && address ? address.port : 0;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}
