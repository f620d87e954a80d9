import type { Db } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import type { PaymentsAdapter } from "../../platform/adapters/payments";
import type { FileStorage } from "../../platform/storage";
import { ApplicationsService } from "./applications.service";
import { CodesService } from "./codes.service";
import { PaymentsService } from "./payments.service";
import { RefundsService } from "./refunds.service";

export interface CollectionDeps {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  /** Whether a user is a sub-account (sub-passport) of the merchant (accounts module). */
  isSubAccount: (merchantId: number, userId: number) => Promise<boolean>;
  /** Whether a store is the merchant's (stores module). */
  ownStore: (merchantId: number, storeId: number) => Promise<boolean>;
  /** The local aggregator finishes a signed application after this many seconds (its asynchronous step). */
  signingSeconds: number;
  /** Customer payments: the payments seam. */
  payments: PaymentsAdapter;
}

/**
 * Payment collection: aggregated onboarding on a payment aggregator (`applications`: here the local
 * adapter: an operator reviews in the console, the merchant confirms, signs through the link, and the
 * adapter finishes the signing asynchronously), collection codes per account (`codes`), payments through
 * a code (`payments`: the local adapter's simulated wallet pays at once) and refunds (`refunds`). A
 * payment credits the merchant's income less the fee of its industry, the fee to the platform; a refund
 * takes it back, never more than was paid, once per request.
 */
export class CollectionService {
  readonly applications: ApplicationsService;
  readonly codes: CodesService;
  readonly payments: PaymentsService;
  readonly refunds: RefundsService;

  constructor(deps: CollectionDeps) {
    this.applications = new ApplicationsService(deps);
    this.codes = new CodesService(deps);
    this.payments = new PaymentsService(deps);
    this.refunds = new RefundsService(deps);
  }
}
