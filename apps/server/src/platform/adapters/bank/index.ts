import { access, mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../../../config";
import { csvRow } from "../../csv";

/** One payout instruction to the bank: pay `amount` minor units to the merchant's verified card. */
export interface PayoutInstruction {
  reference: string;
  amount: number;
  currency: string;
  companyName: string;
  bank: string;
  city: string;
  account: string;
  day: string;
}

/**
 * Payouts to merchants' bank accounts. A bank connection (host-to-host file upload or a payment API)
 * implements `submit`; the result comes back as a bank statement that an operator (or a statement
 * import) marks paid or failed. **`submit` is idempotent by reference**: the withdrawals' payout outbox
 * may submit an instruction again after a crash between the bank taking it and the outbox recording that,
 * and a second submission of a reference the bank already has must be taken as done, not paid twice (a
 * real bank connection sends the reference as its idempotency key or looks it up first). The local
 * adapter writes the payout file it would have sent into DATA_DIR/bank-payouts, one CSV per instruction,
 * written whole or not at all (a temporary file renamed), and leaves a file that exists as it is.
 */
export interface BankPayouts {
  readonly kind: string;
  submit(instruction: PayoutInstruction): Promise<{ file: string; duplicate: boolean }>;
}

export function createBankPayouts(config: Config): BankPayouts {
  return createLocalBankPayouts(path.join(config.dataDir, "bank-payouts"));
}

export function createLocalBankPayouts(dir: string): BankPayouts {
  return {
    kind: "local",
    async submit(p) {
      const folder = path.join(dir, p.day);
      const file = path.join(folder, `${p.reference}.csv`);
      if (await exists(file)) return { file, duplicate: true };
      await mkdir(folder, { recursive: true });
      // Merchant-entered cells (company, bank, city, account) neutralised and quoted: platform/csv.ts.
      const header = csvRow(["reference", "amount_minor", "currency", "company_name", "bank", "city", "account"]);
      const row = csvRow([p.reference, p.amount, p.currency, p.companyName, p.bank, p.city, p.account]);
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, header + row);
      await rename(partial, file);
      return { file, duplicate: false };
    },
  };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
