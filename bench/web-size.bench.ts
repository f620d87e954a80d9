/**
 * What the login route downloads (issue 25 item 8): the JavaScript of the built web app (`npm run build`)
 * that `/login` needs before it shows: the entry script and its module preloads from index.html and the core
 * texts of the reader's language (the light first screen, src/login), and every chunk they import statically
 * (followed through the import statements of the built files), raw and gzip -9. Budget: under 200 kB gzip.
 * Printed beside it: what the app that takes over after the first paint adds. Needs no server.
 * The customer storefront (/mall/*) is its own entry, mall.html: measured from that page (budget 120 kB gzip).
 * The customer card bag (/client/cardBag, issue 40 item 9) is a light entry that index.html's script loads instead
 * of the app (features/onecard/client/light/start.tsx): measured as its first page downloads it (budget 120 kB
 * gzip). A figure over its budget is INVALID (bench/lib/verdict.ts), so `npm run bench` fails on it.
 * WEB_DIST names another build folder (default apps/web/dist).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { invalid } from "./lib/verdict";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.join(repo, "apps/web/dist");
const BUDGET_GZIP = 200 * 1000;
/** Issue 30: the mall storefront's initial JS. */
const MALL_BUDGET_GZIP = 120 * 1000;
/**
 * Issue 43 item 5: the JavaScript a user has before they can type a password on /login (today the light
 * first screen, then the whole app with its login dialog). Printed OVER, not yet INVALID: the login, register
 * and reset forms are still the app's (antd) dialogs, and an INVALID line would fail every `npm test` until
 * they are light.
 */
const SIGN_IN_BUDGET_GZIP = 150 * 1000;
/** Issue 40 item 9: the card bag's first page, as the storefront's. */
const BAG_BUDGET_GZIP = 120 * 1000;

const kb = (n: number): string => `${(n / 1000).toFixed(1)} kB`;

/** The chunks a built file imports statically (`import ... from "./x.js"`, `import "./x.js"`), not `import()`. */
function staticImports(file: string): string[] {
  const code = readFileSync(path.join(dist, "assets", file), "utf8");
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*${}\s,]+from\s*)?["']\.\/([\w.-]+\.js)["']/g)) {
    if (m[1]) found.add(m[1]);
  }
  return [...found];
}

/** The chunks the roots load statically, the roots included (a depth-first walk of their imports). */
function closure(roots: string[], seen = new Set<string>()): Set<string> {
  const toVisit = [...roots];
  while (toVisit.length) {
    const file = toVisit.pop();
    if (!file || seen.has(file)) continue;
    seen.add(file);
    toVisit.push(...staticImports(file));
  }
  return seen;
}

/** The page chunk of a lazily loaded route: the chunk named after the page module that the entry graph does not hold. */
function pageChunks(name: string, eager: Set<string>): string[] {
  return readdirSync(path.join(dist, "assets")).filter(
    (f) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(f) && !eager.has(f),
  );
}

/**
 * The storefront's first download (issue 30): its own entry, mall.html (apps/web/vite.config.ts), so its
 * scripts and module preloads, the chunks they import statically, and the one language file of storefront
 * texts the entry fetches before it renders (simplified Chinese here: the `import("./zh-CN-….js")` of the
 * built entry). Null when the build has no mall.html.
 */
function storefrontFiles(): { js: Set<string>; css: string[] } | null {
  const html = path.join(dist, "mall.html");
  if (!existsSync(html)) return null;
  const page = readFileSync(html, "utf8");
  const initial = [...page.matchAll(/(?:src|href)="\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1] ?? "").filter(Boolean);
  const css = [...page.matchAll(/href="\/assets\/([\w.-]+\.css)"/g)].map((m) => m[1] ?? "").filter(Boolean);
  const js = closure(initial);
  const texts = new Set<string>();
  for (const file of js) {
    for (const m of readFileSync(path.join(dist, "assets", file), "utf8").matchAll(
      /["'`]\.\/(zh-CN-[\w-]+\.js)["'`]/g,
    )) {
      if (m[1]) texts.add(m[1]);
    }
  }
  return { js: closure([...texts], js), css };
}

/**
 * The card bag's first page (issue 40 item 9): index.html's scripts and preloads, the light card bag that the
 * entry imports for its paths (the `start-….js` chunk it imports, not the app's), the chunks they import
 * statically, and the simplified Chinese texts the bag fetches before it renders (the app's onecard.json, a
 * chunk of its own, and the bag's own zh-CN.json). Null when the build has no such chunk.
 */
function cardBagFiles(eager: Set<string>): { js: Set<string>; css: string[] } | null {
  const assets = path.join(dist, "assets");
  const dynamicOf = (file: string) =>
    [...readFileSync(path.join(assets, file), "utf8").matchAll(/["'`]\.\/([\w.-]+\.(?:js|css))["'`]/g)].map(
      (m) => m[1] ?? "",
    );
  const start = [...eager].flatMap(dynamicOf).find((f) => /^start-[\w-]+\.js$/.test(f));
  if (!start) return null;
  const code = closure([start], new Set(eager));
  const texts = dynamicOf(start).filter(
    (f) =>
      /^zh-CN-[\w-]+\.js$/.test(f) ||
      (/^onecard-[\w-]+\.js$/.test(f) && readFileSync(path.join(assets, f), "utf8").includes("locale-onecard-zh-CN")),
  );
  // Its style sheet is named in the entry's preload list, beside the chunk.
  const css = [
    ...new Set(
      [...eager].flatMap((f) =>
        [...readFileSync(path.join(assets, f), "utf8").matchAll(/assets\/(start-[\w-]+\.css)/g)].map((m) => m[1] ?? ""),
      ),
    ),
  ];
  return { js: closure(texts, code), css };
}

export function benchWebSize(): string[] {
  const html = path.join(dist, "index.html");
  if (!existsSync(html)) return ["Web app size: apps/web/dist is missing (run `npm run build` first)"];
  const index = readFileSync(html, "utf8");
  const initial = [...index.matchAll(/(?:src|href)="\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1] ?? "").filter(Boolean);
  const eager = closure(initial);
  // The login page's first screen is the light landing (src/login): the entry's static graph and the core texts of
  // the reader's language (simplified Chinese here), fetched before it paints.
  const login = closure(pageChunks("locale-core-zh-CN", eager), new Set(eager));
  // After that paint the whole app takes over (src/app/start.tsx, its own build input) and opens the login dialog.
  const takeover = closure(
    [...pageChunks("app", login), ...pageChunks("Login", login), ...pageChunks("locale-zh-CN", login)],
    new Set(login),
  );
  for (const file of login) takeover.delete(file);
  const mall = storefrontFiles();
  const bag = cardBagFiles(eager);
  const size = (files: Iterable<string>) => {
    let raw = 0;
    let gz = 0;
    for (const f of files) {
      const code = readFileSync(path.join(dist, "assets", f));
      raw += code.length;
      gz += gzipSync(code, { level: 9 }).length;
    }
    return { raw, gz };
  };
  const entry = size(eager);
  const all = size(login);
  const after = size(takeover);
  const mallSize = size(mall?.js ?? []);
  const mallCss = size(mall?.css ?? []);
  const bagSize = size(bag?.js ?? []);
  const bagCss = size(bag?.css ?? []);
  const lines = ["Web app, JavaScript per route (built files; gzip -9):"];
  lines.push(
    `  entry + preloads (every route)  ${String(eager.size).padStart(3)} files  raw ${kb(entry.raw).padStart(10)}  gzip ${kb(entry.gz).padStart(9)}`,
  );
  lines.push(
    `  /login first screen (initial)   ${String(login.size).padStart(3)} files  raw ${kb(all.raw).padStart(10)}  gzip ` +
      `${kb(all.gz).padStart(9)}  budget ${kb(BUDGET_GZIP)} gzip: ${all.gz <= BUDGET_GZIP ? "within" : "OVER"}`,
  );
  lines.push(
    `    then, after its first paint, the app with the login dialog: ${takeover.size} files, raw ${kb(after.raw)}, gzip ${kb(after.gz)}`,
  );
  const signIn = all.gz + after.gz;
  lines.push(
    `  /login until a password can be typed ${String(login.size + takeover.size).padStart(3)} files  gzip ${kb(signIn).padStart(9)} ` +
      ` budget ${kb(SIGN_IN_BUDGET_GZIP)} gzip: ${signIn <= SIGN_IN_BUDGET_GZIP ? "within" : "OVER"}`,
  );
  if (!mall) lines.push("  /mall/:appId (storefront)       apps/web/dist/mall.html is missing");
  else {
    lines.push(
      `  /mall/:appId (storefront)       ${String(mall.js.size).padStart(3)} files  raw ${kb(mallSize.raw).padStart(10)}  gzip ${kb(mallSize.gz).padStart(9)} ` +
        ` budget ${kb(MALL_BUDGET_GZIP)} gzip: ${mallSize.gz <= MALL_BUDGET_GZIP ? "within" : "OVER"}`,
    );
    lines.push(
      `    (mall.html's scripts + preloads + zh-CN storefront texts; its CSS beside: ${mall.css.length} file, gzip ${kb(mallCss.gz)})`,
    );
  }
  if (!bag) lines.push(invalid("web-size", "the build has no card bag light entry (features/onecard/client/light)"));
  else {
    lines.push(
      `  /client/cardBag (card bag)      ${String(bag.js.size).padStart(3)} files  raw ${kb(bagSize.raw).padStart(10)}  gzip ${kb(bagSize.gz).padStart(9)} ` +
        ` budget ${kb(BAG_BUDGET_GZIP)} gzip: ${bagSize.gz <= BAG_BUDGET_GZIP ? "within" : "OVER"}`,
    );
    lines.push(
      `    (index.html's scripts + preloads + the light card bag + its zh-CN texts; its CSS beside: ${bag.css.length} file, gzip ${kb(bagCss.gz)})`,
    );
    if (bagSize.gz > BAG_BUDGET_GZIP) {
      lines.push(
        invalid("web-size", `the card bag's first page is ${kb(bagSize.gz)} gzip, over ${kb(BAG_BUDGET_GZIP)}`),
      );
    }
  }
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const line of benchWebSize()) console.log(line);
}
