import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
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
 * import) marks paid or failed. The local adapter writes the payout file it would have sent into
 * DATA_DIR/bank-payouts, one CSV per instruction, so a re-submitted instruction overwrites itself.
 */
export interface BankPayouts {
  readonly kind: string;
  submit(instruction: PayoutInstruction): Promise<{ file: string }>;
}

export function createLocalBankPayouts(dir: string): BankPayouts {
  return {
    kind: "local",
    async submit(p) {
      const folder = path.join(dir, p.day);
      await mkdir(folder, { recursive: true });
      const file = path.join(folder, `${p.reference}.csv`);
      // Merchant-entered cells (company, bank, city, account) neutralised and quoted: platform/csv.ts.
      const header = csvRow(["reference", "amount_minor", "currency", "company_name", "bank", "city", "account"]);
      const row = csvRow([p.reference, p.amount, p.currency, p.companyName, p.bank, p.city, p.account]);
      await writeFile(file, header + row);
      return { file };
    },
  };
}
