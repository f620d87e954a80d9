import { rmSync } from "node:fs";

/** Removes the temporary data folder of the server the journeys ran against. */
export default function teardown(): void {
  const dir = process.env.TESSERA_E2E_DATA_DIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
