import { useEffect, useState, type ComponentType } from "react";
import type { Lang } from "@tessera/contracts/light";
import { LANG_STORAGE_KEY, LANG_TAGS } from "../../../../i18n/languages";
import CardBag from "./CardBag";
import Changes from "./Changes";
import Login from "./Login";
import { navigate, useBagLocation } from "./nav";
import Orders from "./Orders";
import { bagPageOf, type BagPage } from "./paths";
import { loadBagTexts, setCallTexts, setCallToast, TextsContext, type BagTexts } from "./texts";
import { toast, Toasts } from "../../../../ui/lightToast";

export interface BagPageProps {
  /** The reader chose another language (the title bar's menu). */
  onLang: (lang: Lang) => void;
}

const PAGES: Record<Exclude<BagPage, "home">, ComponentType<BagPageProps>> = {
  login: Login,
  cardBag: CardBag,
  changes: Changes,
  orders: Orders,
};

/** `/client` and `/oneCard`: lead to the card bag (spec 01 §2). */
function Home() {
  const { pathname } = useBagLocation();
  useEffect(() => {
    navigate(pathname.toLowerCase().startsWith("/onecard") ? "/oneCard/cardBag" : "/client/cardBag", { replace: true });
  }, [pathname]);
  return null;
}

setCallToast((msg) => toast(msg, "error"));

/** The light card bag (paths.ts): its pages in the reader's language, with the toasts over them. */
export function BagApp({ initialTexts }: { initialTexts: BagTexts }) {
  const [texts, setTexts] = useState(initialTexts);
  const { pathname } = useBagLocation();
  const page = bagPageOf(pathname);
  useEffect(() => {
    setCallTexts(texts);
    document.documentElement.lang = LANG_TAGS[texts.lang];
  }, [texts]);
  const onLang = (lang: Lang) => {
    // Remembered for the whole product, as the app's language menu does.
    window.localStorage.setItem(LANG_STORAGE_KEY, lang);
    void loadBagTexts(lang).then(setTexts);
  };
  const Page = page && page !== "home" ? PAGES[page] : null;
  return (
    <TextsContext.Provider value={texts}>
      {Page ? <Page onLang={onLang} /> : <Home />}
      <Toasts prefix="cb-" />
    </TextsContext.Provider>
  );
}
