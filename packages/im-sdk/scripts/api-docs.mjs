/**
 * Writes the API reference of README.md from the package's types: every export of src/index.ts with its
 * kind and type, the connection's methods with their signatures and doc comments, and its events with
 * their payloads. The text between <!-- api:start --> and <!-- api:end --> is replaced; `--check` fails
 * when README.md is not up to date instead of writing it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "src/index.ts");
const config = ts.getParsedCommandLineOfConfigFile(
  join(root, "tsconfig.build.json"),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
const program = ts.createProgram([entry], { ...config.options, noEmit: true });
const checker = program.getTypeChecker();
const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry));
const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

const doc = (symbol) =>
  ts
    .displayPartsToString(symbol.getDocumentationComment(checker))
    .replace(/\s*\n\s*/g, " ")
    .trim();
const code = (text) => "`" + text.replace(/\s+/g, " ").replace(/\|/g, "\\|") + "`";
const resolve = (s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);

/** Where a method without its own doc comment comes from. */
const AREAS = {
  "users.ts": "Users, contacts, presence, silent mode, translation.",
  "groups.ts": "Groups.",
  "rooms.ts": "Chat rooms.",
  "conversations.ts": "Conversations, history, reactions, reports, pinned messages.",
  "threads.ts": "Threads.",
  "files.ts": "Files.",
  "connection.ts": "Connection.",
  "aliases.ts": "Older names of the published client.",
};
const lines = [];
const exports = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name));

let connectionSymbol;
const values = [];
const types = [];
for (const exp of exports) {
  const s = resolve(exp);
  if (exp.name === "Connection") connectionSymbol = s;
  const decl = s.declarations?.[0];
  if (!decl) continue;
  if (s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias) && !(s.flags & ts.SymbolFlags.Value)) {
    types.push([exp.name, checker.typeToString(checker.getDeclaredTypeOfSymbol(s), undefined, flags), doc(s)]);
  } else {
    const kind = s.flags & ts.SymbolFlags.Class ? "class" : s.flags & ts.SymbolFlags.Function ? "function" : "const";
    const type =
      kind === "class"
        ? `new (${checker.signatureToString(checker.getTypeOfSymbolAtLocation(s, decl).getConstructSignatures()[0])})`
        : checker.typeToString(checker.getTypeOfSymbolAtLocation(s, decl), undefined, flags);
    values.push([exp.name, kind, type, doc(s)]);
  }
}

lines.push("### Exports", "", "| Name | Kind | Type | Description |", "|---|---|---|---|");
for (const [name, kind, type, d] of values) {
  lines.push(`| \`${name}\` | ${kind} | ${code(type.length > 300 ? type.slice(0, 300) + " …" : type)} | ${d} |`);
}
lines.push("", "### Types", "", "| Name | Definition | Description |", "|---|---|---|");
for (const [name, type, d] of types) {
  lines.push(`| \`${name}\` | ${code(type.length > 400 ? type.slice(0, 400) + " …" : type)} | ${d} |`);
}

const instance = checker.getDeclaredTypeOfSymbol(connectionSymbol);
const members = checker
  .getPropertiesOfType(instance)
  .filter(
    (p) =>
      !p.name.startsWith("_") &&
      !(
        ts.getCombinedModifierFlags(p.declarations?.[0] ?? ts.factory.createIdentifier("x")) &
        (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)
      ),
  );
const methods = [];
const fields = [];
for (const m of members.sort((a, b) => a.name.localeCompare(b.name))) {
  const decl = m.declarations?.[0];
  const type = checker.getTypeOfSymbolAtLocation(m, decl ?? instance.symbol.declarations[0]);
  const sigs = type.getCallSignatures();
  const area = AREAS[(decl?.getSourceFile().fileName ?? "").split("/").pop()] ?? "";
  if (sigs.length > 0) {
    methods.push([m.name, sigs.map((s) => checker.signatureToString(s, undefined, flags)).join(" / "), doc(m) || area]);
  } else fields.push([m.name, checker.typeToString(type, undefined, flags), doc(m)]);
}
lines.push(
  "",
  `### \`connection\` methods (${methods.length})`,
  "",
  "| Method | Signature | Description |",
  "|---|---|---|",
);
for (const [name, sig, d] of methods) lines.push(`| \`${name}\` | ${code(sig)} | ${d} |`);
lines.push("", "### `connection` properties", "", "| Property | Type | Description |", "|---|---|---|");
for (const [name, type, d] of fields) lines.push(`| \`${name}\` | ${code(type)} | ${d} |`);

const eventsSymbol = exports.map(resolve).find((s) => s.name === "ConnectionEvents");
lines.push(
  "",
  "### Events (`addEventHandler(id, handlers)`)",
  "",
  "| Event | Payload | Description |",
  "|---|---|---|",
);
for (const e of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(eventsSymbol))) {
  lines.push(
    `| \`${e.name}\` | ${code(checker.typeToString(checker.getTypeOfSymbolAtLocation(e, e.declarations[0]), undefined, flags))} | ${doc(e)} |`,
  );
}

const readmePath = join(root, "README.md");
const readme = readFileSync(readmePath, "utf8");
const start = "<!-- api:start -->";
const end = "<!-- api:end -->";
const next =
  readme.slice(0, readme.indexOf(start) + start.length) +
  "\n\n" +
  lines.join("\n") +
  "\n\n" +
  readme.slice(readme.indexOf(end));
if (process.argv.includes("--check")) {
  if (next !== readme) {
    console.error("README.md API reference is out of date: run npm run docs -w @tessera/im-sdk");
    process.exit(1);
  }
} else {
  writeFileSync(readmePath, next);
  console.log(`API reference: ${values.length} exports, ${types.length} types, ${methods.length} methods`);
}
