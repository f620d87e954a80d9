#!/usr/bin/env node
/**
 * Runs npm scripts side by side (`node scripts/run-parallel.mjs typecheck lint`): `npm test` runs the
 * type check and the lint at once, one per core. Each script's output is held and printed whole when it
 * ends, so the two logs do not interleave; the exit code is non-zero when any script failed.
 */
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
if (names.length === 0) throw new Error("usage: node scripts/run-parallel.mjs <npm script>...");

const codes = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn("npm", ["run", name], { stdio: ["ignore", "pipe", "pipe"] });
        const output = [];
        child.stdout.on("data", (chunk) => output.push(chunk));
        child.stderr.on("data", (chunk) => output.push(chunk));
        child.on("error", (error) => output.push(Buffer.from(`${error.message}\n`)));
        child.on("close", (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(0);
          process.stdout.write(Buffer.concat(output));
          process.stdout.write(`${code === 0 ? "passed" : "FAILED"}: npm run ${name} (${seconds} s)\n`);
          resolve(code ?? 1);
        });
      }),
  ),
);
process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
