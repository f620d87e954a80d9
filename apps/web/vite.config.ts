import react from "@vitejs/plugin-react";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";
import type { Plugin } from "vite";

/**
 * Builds the web app into apps/web/dist (served by the server). The dev server proxies /api to a
 * local server. The pages only one area's route table loads are that area's lazily loaded chunk; antd and React are vendor
 * chunks, so a page change downloads only that area's code.
 */
const API_TARGET = process.env.TESSERA_API ?? "http://127.0.0.1:8080";

const vendorGroups: { name: string; test: RegExp; tags?: "$initial"[] }[] = [
  // Only the antd code the first page needs; Table, DatePicker & co. load with the pages that use them.
  { name: "vendor-antd", test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+)[\\/]/, tags: ["$initial"] },
  // React alone is in the login page's first download (main.tsx); the router and react-query come with the app.
  { name: "vendor-react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: "vendor-router", test: /node_modules[\\/](react-router|@tanstack)[\\/]/ },
  { name: "vendor-i18n", test: /node_modules[\\/](i18next|react-i18next|dayjs)[\\/]/ },
];
// One chunk per language of the app's texts (i18n/resources.ts loads the reader's language only). Its
// core.json (header, auth, landing) is a chunk of its own, listed first so it wins: the light login
// screen (src/login) loads only that. So is onecard.json, which the card bag's light entry
// (features/onecard/client/light) loads.
const localeGroups = ["zh-CN", "zh-TW", "en"].flatMap((folder) => [
  { name: `locale-core-${folder}`, test: new RegExp(`[\\/]src[\\/]i18n[\\/]locales[\\/]${folder}[\\/]core\\.json$`) },
  {
    name: `locale-onecard-${folder}`,
    test: new RegExp(`[\\/]src[\\/]i18n[\\/]locales[\\/]${folder}[\\/]onecard\\.json$`),
  },
  { name: `locale-${folder}`, test: new RegExp(`[\\/]src[\\/]i18n[\\/]locales[\\/]${folder}[\\/]`) },
]);
// One chunk per back-office area: the page modules only its route table (src/areas/<area>/routes.ts) loads,
// read from the tables' `import("../../features/...")` lines; a page two areas load stays a chunk of its own.
// The public pages (the first screens) are not grouped, and the storefront (src/features/mall/storefront)
// is not an area chunk: it is its own entry, mall.html.
const areaDir = fileURLToPath(new URL("./src/areas/", import.meta.url));
const pagesOf = (area: string) =>
  [...readFileSync(`${areaDir}${area}/routes.ts`, "utf8").matchAll(/import\("\.\.\/\.\.\/(features\/[^"]+)"\)/g)].map(
    (m) => m[1]!,
  );
const loads = new Map<string, number>();
for (const area of readdirSync(areaDir)) {
  for (const page of new Set(pagesOf(area))) loads.set(page, (loads.get(page) ?? 0) + 1);
}
const areaGroups = ["sale", "business", "international", "dev"].map((area) => {
  const own = [...new Set(pagesOf(area))]
    .filter((page) => loads.get(page) === 1)
    .map((page) => page.split("/").join("[\\\\/]"));
  return { name: `area-${area}`, test: new RegExp(`[\\\\/]src[\\\\/](${own.join("|") || "$^"})\\.tsx?$`) };
});

/**
 * The dev server's counterpart of the server's rule (apps/server/src/app.ts): /mall/* is the storefront,
 * mall.html, not the back-office's index.html.
 */
const mallPages: Plugin = {
  name: "tessera-mall-pages",
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.method === "GET" && req.url && /^\/mall(\/|\?|$)/.test(req.url)) req.url = "/mall.html";
      next();
    });
  },
};

export default defineConfig({
  // Brotli and gzip copies of every text asset, made once at build time; the server sends the one the
  // browser accepts (@fastify/static preCompressed), so nothing is compressed per request.
  plugins: [
    react(),
    mallPages,
    compression({
      algorithms: ["brotliCompress", "gzip"],
      include: /\.(js|mjs|css|html|svg|json|txt)$/,
      threshold: 1024,
    }),
  ],
  server: {
    port: 5173,
    proxy: { "/api": { target: API_TARGET, changeOrigin: true } },
  },
  preview: {
    proxy: { "/api": { target: API_TARGET, changeOrigin: true } },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // The whole app (src/app/start.tsx, imported by main.tsx after the login page's light first screen)
      // is an entry of its own, so `$initial` (vendor-antd) still gathers the antd code it needs at start
      // into one chunk instead of a hundred small ones. The customer storefront (mall.html, /mall/*) is
      // a third entry with a first download of its own (React, i18next, its plain pages; no antd).
      input: {
        index: fileURLToPath(new URL("./index.html", import.meta.url)),
        app: fileURLToPath(new URL("./src/app/start.tsx", import.meta.url)),
        mall: fileURLToPath(new URL("./mall.html", import.meta.url)),
      },
      output: {
        codeSplitting: {
          // A group takes only the modules it matches; shared code stays in shared chunks, so the entry
          // never pulls an area in.
          includeDependenciesRecursively: false,
          groups: [...vendorGroups, ...localeGroups, ...areaGroups],
        },
      },
    },
  },
});
