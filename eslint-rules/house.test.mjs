// The house rules fail on seeded violations and pass their lawful twins; the repository's own config
// applies them to every file (there is no exemption list).
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { houseConfig } from "./house.mjs";

const root = new URL("..", import.meta.url).pathname;
const houseOnly = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [{ files: ["**/*.{ts,tsx}"], languageOptions: { parser: tseslint.parser } }, houseConfig],
});

async function problems(filePath, code) {
  const [result] = await houseOnly.lintText(code, { filePath });
  return result.messages.map((message) => message.ruleId);
}

describe("house lint rules", () => {
  it("a module reaches another only through its index", async () => {
    const file = "apps/server/src/modules/mall/checkout.service.ts";
    expect(await problems(file, 'import { x } from "../onecard/repo";\n')).toEqual(["house/module-boundaries"]);
    expect(await problems(file, 'export { x } from "../onecard/sales.service.js";\n')).toEqual([
      "house/module-boundaries",
    ]);
    expect(await problems(file, 'import { x } from "../onecard";\nimport { y } from "../onecard/index.js";\n')).toEqual(
      [],
    );
    expect(await problems(file, 'import { x } from "./checkout.repo";\n')).toEqual([]);
  });

  it("the platform never imports a module", async () => {
    const file = "apps/server/src/platform/payments/local.ts";
    expect(await problems(file, 'import { post } from "../../modules/ledger";\n')).toEqual(["house/module-boundaries"]);
    expect(await problems(file, 'import { audit } from "../audit";\n')).toEqual([]);
  });

  it("query building stays in repositories", async () => {
    const code = 'export const q = (db: any) => db.selectFrom("orders").selectAll().execute();\n';
    expect(await problems("apps/server/src/modules/mall/checkout.service.ts", code)).toEqual(["house/query-in-repo"]);
    expect(await problems("apps/server/src/modules/mall/routes.ts", code)).toEqual(["house/query-in-repo"]);
    expect(await problems("apps/server/src/modules/mall/checkout.repo.ts", code)).toEqual([]);
    expect(await problems("apps/server/src/modules/mall/repo.ts", code)).toEqual([]);
    expect(await problems("apps/server/src/modules/mall/stock.sql.ts", code)).toEqual([]);
    expect(await problems("apps/server/src/im/store/messages.ts", code)).toEqual([]);
  });

  it("web layers point one way and areas never import each other", async () => {
    const page = "apps/web/src/areas/sale/routes.ts";
    expect(await problems(page, 'import { api } from "../business/stores/api";\n')).toEqual(["house/web-layers"]);
    expect(await problems(page, 'import { api } from "../../features/stores/api";\n')).toEqual([]);
    expect(await problems("apps/web/src/features/stores/api.ts", 'import { P } from "../../areas/sale/P";\n')).toEqual([
      "house/web-layers",
    ]);
    expect(
      await problems("apps/web/src/ui/list/PagedTable.tsx", 'import { a } from "../../features/x/api";\n'),
    ).toEqual(["house/web-layers"]);
  });

  it("the repository's config applies the rules to a new file", async () => {
    const config = await new ESLint({ cwd: root }).calculateConfigForFile("apps/server/src/modules/newmod/service.ts");
    for (const rule of ["house/module-boundaries", "house/query-in-repo"]) {
      expect(config.rules[rule]?.[0], rule).toBe(2);
    }
    const web = await new ESLint({ cwd: root }).calculateConfigForFile("apps/web/src/areas/newarea/Page.tsx");
    expect(web.rules["house/web-layers"]?.[0]).toBe(2);
  });
});
