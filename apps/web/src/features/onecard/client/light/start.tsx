import { StrictMode } from "react";
import type { Root } from "react-dom/client";
import { BagApp } from "./BagApp";
import { loadBagTexts, setCallTexts, storedLang } from "./texts";
import "./bag.css";

/**
 * The card bag's light entry (issue 40 item 9), loaded by main.tsx for the paths of paths.ts instead of the
 * whole app: React, its texts and its plain pages, no antd, router or react-query.
 */
export async function startBag(root: Root): Promise<void> {
  const texts = await loadBagTexts(storedLang());
  setCallTexts(texts);
  root.render(
    <StrictMode>
      <BagApp initialTexts={texts} />
    </StrictMode>,
  );
}
