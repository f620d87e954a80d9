import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../config";
import { createPayments, moneyAccounts, sandboxPaymentsRefusal } from "./index";

/** Simulated is sandbox (issue 37): the local adapter's money is test money, and a live deployment refuses it. */
describe("the deployment's mode and its payments", () => {
  it("npm start's default is sandbox with the local adapter, whose money goes to the sandbox accounts", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      mode: "sandbox",
      paymentAdapter: "local",
      payoutReviewAbove: 5_000_000,
      payoutReviewDays: 30,
    });
    expect(sandboxPaymentsRefusal(config)).toBeNull();
    expect(createPayments(config)).toMatchObject({ name: "local", sandbox: true });
    expect(moneyAccounts(true).income(7)).toEqual({ merchantId: 7, kind: "sandbox_income" });
    expect(moneyAccounts(false).income(7)).toEqual({ merchantId: 7, kind: "income" });
  });

  it("live (said, or implied by real mail) refuses the local adapter and an unnamed one, and takes none", () => {
    const smtp = { MAIL_ADAPTER: "smtp", SMTP_URL: "smtp://mail.example.com:587" };
    for (const env of [
      { TESSERA_MODE: "live" },
      smtp,
      { ...smtp, PAYMENT_ADAPTER: "local" },
      { TESSERA_MODE: "live", PAYMENT_ADAPTER: "local" },
    ]) {
      const config = loadConfig(env);
      expect(config.mode, JSON.stringify(env)).toBe("live");
      expect(sandboxPaymentsRefusal(config), JSON.stringify(env)).toMatch(/PAYMENT_ADAPTER/);
    }
    const none = loadConfig({ TESSERA_MODE: "live", PAYMENT_ADAPTER: "none" });
    expect(sandboxPaymentsRefusal(none)).toBeNull();
    expect(createPayments(none)).toMatchObject({ name: "none", sandbox: false });
    expect(() => loadConfig({ PAYMENT_ADAPTER: "paypal" })).toThrow("PAYMENT_ADAPTER must be one of local, none");
    expect(() => loadConfig({ PAYOUT_REVIEW_ABOVE: "lots" })).toThrow("PAYOUT_REVIEW_ABOVE must be an amount in yuan");
    expect(loadConfig({ PAYOUT_REVIEW_ABOVE: "1000.5" }).payoutReviewAbove).toBe(100_050);
  });

  it("the server process refuses to start live with the local adapter and says why", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tessera-live-"));
    try {
      const run = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: path.resolve(import.meta.dirname, "../../../.."),
        env: {
          ...process.env,
          TESSERA_MODE: "live",
          PAYMENT_ADAPTER: "local",
          DATA_DIR: dir,
          PORT: "0",
          DEV_ROUTES: "false",
          LOG_LEVEL: "info",
        },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stdout + run.stderr).toContain("PAYMENT_ADAPTER is local, which collects no money");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
