import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { ConsoleLayout } from "./layouts/ConsoleLayout";
import { PublicLayout } from "./layouts/PublicLayout";
import { loadChunk } from "./lazy";
import { RootLayout } from "./RootLayout";
import { PageFailure, RouteError } from "./RouteError";
import { AREAS, PUBLIC_PAGES, type PageDef, type RouteHandle } from "./routes";
import { featurePage } from "../ui/areas";
import { FullPageSpin } from "../ui/FullPageSpin";

function pageRoute(page: PageDef): RouteObject {
  const handle: RouteHandle = { titleKey: page.titleKey };
  return {
    path: page.path,
    handle,
    errorElement: <RouteError />,
    // A failed load resolves to a page that says so (with Reload), inside the area's layout: a
    // rejected `lazy` would leave React Router rendering nothing below the root.
    lazy: async () => {
      try {
        const mod = await loadChunk(page.load);
        return { Component: mod.default };
      } catch (error: unknown) {
        return { Component: () => <PageFailure error={error} /> };
      }
    },
  };
}

/** History-mode router built from the route table (spec 01 §2). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageSpin />,
    children: [
      { path: "/", element: <Navigate to="/login" replace /> },
      {
        element: <PublicLayout />,
        children: [
          ...PUBLIC_PAGES.map(pageRoute),
          { path: "/international", element: <Navigate to="/international/INlogin" replace /> },
          pageRoute({
            path: "*",
            load: featurePage(() => import("../ui/NotFoundResult").then((m) => m.NotFoundResult), {}),
            titleKey: "title.notFound",
          }),
        ],
      },
      ...AREAS.map((area): RouteObject => ({
        path: area.base,
        element: <ConsoleLayout area={area} />,
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to={`${area.base}/${area.pages[0]?.path ?? ""}`} replace /> },
          ...area.pages.map(pageRoute),
        ],
      })),
    ],
  },
];

export const router = createBrowserRouter(routes);
