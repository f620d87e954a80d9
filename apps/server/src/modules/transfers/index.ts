import type { ModuleHost } from "../../platform/module";
import { consumeVerificationCode, type AccountsService } from "../accounts";
import { transferRoutes } from "./routes";
import { TransfersService } from "./service";

export { TransfersService, type TransferCodes } from "./service";

/**
 * Income transfers between merchants, confirmed with an SMS code to the sender's bound phone and booked
 * only when the recipient accepts. Mounts under /api/card-brander.
 */
export async function registerTransfers(
  host: ModuleHost,
  { accounts }: { accounts: AccountsService },
): Promise<{ transfers: TransfersService }> {
  const transfers = new TransfersService({
    db: host.db,
    clock: host.ctx.clock,
    codes: {
      phoneOf: async (actor) => (await accounts.userInfo(actor)).phone,
      send: (phone, lang, actor) => accounts.sendSmsCode(phone, "transitAuth", lang, actor),
      check: (phone, code) => accounts.checkSmsCode(phone, "transitAuth", code),
      consume: consumeVerificationCode,
    },
  });
  await host.mount(
    "/api/card-brander",
    transferRoutes({ transfers, guard: host.guard, rateLimitDeps: accounts.rateLimitDeps }),
  );
  return { transfers };
}
export { CHECK_MAX } from "./routes";
