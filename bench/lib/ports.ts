import { createServer } from "node:net";

/**
 * A port free on 127.0.0.1 right now, picked by the operating system. (A random port can collide with
 * the ephemeral ports of the benchmark's own client connections, which the kernel hands out from 32768.)
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}
