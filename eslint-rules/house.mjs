/**
 * The house rules (issue 39, docs/architecture.md "Module recipe"), as a local ESLint plugin:
 *
 * - `house/module-boundaries`: a server module imports another module only through its `index.ts`;
 *   `platform/` never imports `modules/` (the platform is what modules stand on, not the other way).
 * - `house/query-in-repo`: query building (`selectFrom`, `insertInto`, `updateTable`, `deleteFrom`, ...)
 *   only in `*.repo.ts` / `repo.ts`, `*.sql.ts` (one-statement fragments), `db/`, `im/store/`, and tests.
 * - `house/web-layers`: the web app's layers point one way, app → areas → features → ui → api/i18n:
 *   an area never imports another area, and features and the kit never import areas or app.
 *
 * Paths are resolved from the importing file, so `../x/y` and `../../modules/x/y` are judged alike.
 */
import { dirname, relative, resolve, sep } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const repoPath = (file) => relative(root, resolve(file)).split(sep).join("/");

const serverSrc = "apps/server/src/";
const webSrc = "apps/web/src/";

/** `modules/<name>/<rest>` of a repository path, or undefined. */
function moduleOf(path) {
  const match = /^apps\/server\/src\/modules\/([^/]+)(?:\/(.*))?$/.exec(path);
  return match ? { name: match[1], rest: match[2] ?? "" } : undefined;
}

/** The repository path an import specifier points at (relative specifiers only; packages are not ours). */
function importedPath(context, specifier) {
  if (typeof specifier !== "string" || !specifier.startsWith(".")) return undefined;
  return repoPath(resolve(dirname(context.filename), specifier)).replace(/\.(js|ts|tsx|mjs)$/, "");
}

/** Calls every import form: `import`, `export … from`, and `import()`. */
function onImports(context, check) {
  const visit = (node, source) => {
    const target = importedPath(context, source?.value);
    if (target) check(node, target);
  };
  return {
    ImportDeclaration: (node) => visit(node, node.source),
    ExportNamedDeclaration: (node) => node.source && visit(node, node.source),
    ExportAllDeclaration: (node) => visit(node, node.source),
    ImportExpression: (node) => node.source.type === "Literal" && visit(node, node.source),
  };
}

const moduleBoundaries = {
  meta: {
    type: "problem",
    docs: { description: "modules meet only through their index.ts; platform/ never imports modules/" },
    messages: {
      throughIndex:
        "Import module '{{module}}' through its index.ts ('{{index}}'), not its inside ('{{target}}'): what another module may use is what its index exports.",
      platformImportsModule:
        "platform/ must not import modules/ ('{{target}}'): pass what the platform needs in as an argument instead.",
    },
    schema: [],
  },
  create(context) {
    const self = repoPath(context.filename);
    if (!self.startsWith(serverSrc)) return {};
    const own = moduleOf(self);
    // A whole-app test may sit beside the platform piece it attacks (platform/http/security.test.ts).
    const inPlatform = self.startsWith(`${serverSrc}platform/`) && !/\.test\.ts$/.test(self);
    return onImports(context, (node, target) => {
      const other = moduleOf(target);
      if (!other) return;
      if (inPlatform) {
        context.report({ node, messageId: "platformImportsModule", data: { target } });
        return;
      }
      if (own && other.name !== own.name && other.rest !== "index" && other.rest !== "") {
        const index = `modules/${other.name}/index.js`;
        context.report({ node, messageId: "throughIndex", data: { module: other.name, index, target } });
      }
    });
  },
};

const queryMethods = new Set(["selectFrom", "insertInto", "updateTable", "deleteFrom", "mergeInto", "replaceInto"]);

/** Files where query building belongs. */
export function isQueryHome(path) {
  if (!path.startsWith(serverSrc)) return true;
  return (
    /(^|\/)repo\.ts$|\.repo\.ts$|\.sql\.ts$/.test(path) ||
    path.startsWith(`${serverSrc}db/`) ||
    path.startsWith(`${serverSrc}im/store/`) ||
    // Tests and the conservation tier read the books to check them; the database tools copy them whole.
    /\.test\.ts$/.test(path) ||
    path.startsWith(`${serverSrc}conservation/`) ||
    path.startsWith(`${serverSrc}tools/`)
  );
}

const queryInRepo = {
  meta: {
    type: "problem",
    docs: { description: "query building only in repositories (*.repo.ts, *.sql.ts, db/, im/store/)" },
    messages: {
      outsideRepo:
        "'{{method}}' builds a query outside a repository: move it into this feature's *.repo.ts (or a *.sql.ts fragment) and call that.",
    },
    schema: [],
  },
  create(context) {
    if (isQueryHome(repoPath(context.filename))) return {};
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.property.type !== "Identifier") return;
        if (!queryMethods.has(callee.property.name)) return;
        context.report({ node, messageId: "outsideRepo", data: { method: callee.property.name } });
      },
    };
  },
};

/** The web layer of a path: app, areas (with the audience), features, ui, or undefined (api, i18n, ...). */
function webLayer(path) {
  if (!path.startsWith(webSrc)) return undefined;
  const [first, second] = path.slice(webSrc.length).split("/");
  if (first === "app") return { layer: "app", rank: 4 };
  if (first === "areas") return { layer: "areas", area: second, rank: 3 };
  if (first === "features") return { layer: "features", rank: 2 };
  if (first === "ui") return { layer: "ui", rank: 1 };
  return undefined;
}

const webLayers = {
  meta: {
    type: "problem",
    docs: { description: "web layers point one way: app → areas → features → ui → api/i18n" },
    messages: {
      crossArea:
        "The '{{from}}' area imports the '{{to}}' area ('{{target}}'): move what both use into features/ (or ui/) and import it from there.",
      upward: "{{fromLayer}}/ must not import {{toLayer}}/ ('{{target}}'): layers point app → areas → features → ui.",
    },
    schema: [],
  },
  create(context) {
    const self = webLayer(repoPath(context.filename));
    if (!self) return {};
    return onImports(context, (node, target) => {
      const other = webLayer(target);
      if (!other) return;
      if (self.layer === "areas" && other.layer === "areas" && self.area !== other.area) {
        context.report({ node, messageId: "crossArea", data: { from: self.area, to: other.area, target } });
      } else if (other.rank > self.rank) {
        context.report({ node, messageId: "upward", data: { fromLayer: self.layer, toLayer: other.layer, target } });
      }
    });
  },
};

export const housePlugin = {
  meta: { name: "house" },
  rules: { "module-boundaries": moduleBoundaries, "query-in-repo": queryInRepo, "web-layers": webLayers },
};

/** The config block eslint.config.mjs spreads (and the lint's own test uses). */
export const houseConfig = {
  files: ["apps/server/src/**/*.ts", "apps/web/src/**/*.{ts,tsx}"],
  plugins: { house: housePlugin },
  rules: {
    "house/module-boundaries": "error",
    "house/query-in-repo": "error",
    "house/web-layers": "error",
  },
};
