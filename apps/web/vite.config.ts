import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";

/**
 * Builds the web app into apps/web/dist (served by the server). The dev server proxies /api to a
 * local server. Each area of src/areas is its own lazily loaded chunk; antd and React are vendor
 * chunks, so a page change downloads only that area's code.
 */
const API_TARGET = process.env.TESSERA_API ?? "http://127.0.0.1:8080";

const vendorGroups: { name: string; test: RegExp; tags?: "$initial"[] }[] = [
  // Only the antd code the first page needs; Table, DatePicker & co. load with the pages that use them.
  { name: "vendor-antd", test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+)[\\/]/, tags: ["$initial"] },
  { name: "vendor-react", test: /node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack)[\\/]/ },
  { name: "vendor-i18n", test: /node_modules[\\/](i18next|react-i18next|dayjs)[\\/]/ },
];
// One chunk per language of the app's texts (i18n/resources.ts loads the reader's language only).
const localeGroups = ["zh-CN", "zh-TW", "en"].map((folder) => ({
  name: `locale-${folder}`,
  test: new RegExp(`[\\/]src[\\/]i18n[\\/]locales[\\/]${folder}[\\/]`),
}));
const areaGroups = ["public", "sale", "business", "international", "dev", "mall"].map((area) => ({
  name: `area-${area}`,
  test: new RegExp(`[\\\\/]src[\\\\/]areas[\\\\/]${area}[\\\\/]`),
}));

export default defineConfig({
  // Brotli and gzip copies of every text asset, made once at build time; the server sends the one the
  // browser accepts (@fastify/static preCompressed), so nothing is compressed per request.
  plugins: [react(), compression({ algorithms: ["brotliCompress", "gzip"], include: /\.(js|mjs|css|html|svg|json|txt)$/, threshold: 1024 })],
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
