import { CODE, type CustomerLoginReply, type Lang, type SendCodeReply } from "@tessera/contracts";
import type { FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { withTx, type Db, type Tx } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import { newToken, tokenHash } from "../../platform/crypto/tokens";
import { AppError } from "../../platform/http/errors";
import * as customers from "./customers.repo";

/**
 * End customers (spec 01 §6): a phone number logged in by SMS code, with a customer token of its own
 * (header `x-customer-token`), kept apart from merchants' sessions. A missing, unknown or expired
 * token is reply code 1007, which the web app answers by dropping the customer token and going to the
 * customer login (spec 01 §8). The mall of the next issue uses the same accounts and guard.
 */
export const CUSTOMER_TOKEN_HEADER = "x-customer-token";
export const CUSTOMER_TOKEN_TTL_SECONDS = 7 * 86_400;

export interface Customer {
  id: number;
  phone: string;
}

declare module "fastify" {
  interface FastifyRequest {
    customer: Customer | null;
  }
}

/** What customer login needs of accounts: SMS codes of the scene "customerLogin". */
export interface CustomerCodes {
  send(phone: string, lang: Lang): Promise<SendCodeReply>;
  check(phone: string, code: string): Promise<number>;
  consume(tx: Tx, codeId: number, now: Date): Promise<boolean>;
}

export const loginExpired = () => new AppError(CODE.MALL_LOGIN_EXPIRED, "onecard.loginExpired");

export class CustomersService {
  constructor(private readonly deps: { db: Db; clock: Clock; codes: CustomerCodes }) {}

  sendLoginCode(phone: string, lang: Lang): Promise<SendCodeReply> {
    return this.deps.codes.send(phone, lang);
  }

  /** Logs a phone in with its code; the first login creates the customer. */
  async login(phone: string, smsCode: string): Promise<CustomerLoginReply> {
    const codeId = await this.deps.codes.check(phone, smsCode);
    const now = this.deps.clock.now();
    const token = newToken();
    await withTx(this.deps.db, async (tx) => {
      if (!(await this.deps.codes.consume(tx, codeId, now))) {
        throw new AppError(CODE.CODE_INVALID, "code.invalid", {}, "smsCode");
      }
      const customerId = await customers.ensureCustomer(tx, phone, now);
      await customers.insertSession(tx, {
        customer_id: customerId,
        token_hash: tokenHash(token),
        expires_at: new Date(now.getTime() + CUSTOMER_TOKEN_TTL_SECONDS * 1000),
        created_at: now,
      });
    });
    return { token, expires_in: CUSTOMER_TOKEN_TTL_SECONDS, phone };
  }

  async authenticate(token: string): Promise<Customer | null> {
    const row = await customers.sessionByTokenHash(this.deps.db, tokenHash(token));
    if (!row || new Date(row.expires_at) <= this.deps.clock.now()) return null;
    return { id: row.id, phone: row.phone };
  }

  async logout(token: string): Promise<void> {
    await customers.deleteSession(this.deps.db, tokenHash(token));
  }

  /** The preHandler of every customer call: a live customer token, or code 1007. */
  guard(): preHandlerAsyncHookHandler {
    return async (req) => {
      const token = customerTokenOf(req);
      const customer = token ? await this.authenticate(token) : null;
      if (!customer) throw loginExpired();
      req.customer = customer;
    };
  }
}

export function customerTokenOf(req: FastifyRequest): string | undefined {
  const raw = req.headers[CUSTOMER_TOKEN_HEADER];
  const token = Array.isArray(raw) ? raw[0] : raw;
  return token && token.length <= 200 ? token : undefined;
}

export function customerOf(req: FastifyRequest): Customer {
  if (!req.customer) throw loginExpired();
  return req.customer;
}
