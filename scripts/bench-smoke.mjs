#!/usr/bin/env node
// `npm run bench:smoke` (issue 43): every bench for about a second with small seeds (BENCH_SMOKE=1), on the
// PostgreSQL server of BENCH_DATABASE_URL or, as in CI, TEST_DATABASE_URL (the benches make and drop their
// own databases there); without either, the benches that need a server say so and the rest run embedded.
// Fails when a bench prints INVALID or throws. Its figures mean nothing; `npm run bench` measures.
import { spawnSync } from "node:child_process";

const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const env = { ...process.env, BENCH_SMOKE: "1", ...(databaseUrl && { BENCH_DATABASE_URL: databaseUrl }) };
const started = Date.now();
const run = spawnSync("npm", ["run", "bench:smoke", "-w", "@tessera/bench"], { stdio: "inherit", env });
console.log(`bench smoke: ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(run.status ?? 1);
