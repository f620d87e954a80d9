import { imError } from "./errors";

/**
 * Translation goes through this adapter. With TRANSLATE_URL it calls a LibreTranslate-compatible server
 * (`GET /languages`, `POST /translate`); without it every call answers "translation service not open",
 * the published client's "service not enabled". It never makes up a translation.
 */
export interface SupportedLanguage {
  code: string;
  name: string;
  nativeName: string;
}

export interface TranslationResult {
  detectedLanguage: { language: string; score: number };
  translations: { text: string; to: string }[];
}

export interface Translator {
  readonly enabled: boolean;
  languages(): Promise<SupportedLanguage[]>;
  translate(text: string, targets: readonly string[]): Promise<TranslationResult>;
}

export const disabledTranslator: Translator = {
  enabled: false,
  languages: () => Promise.reject(imError("serviceNotEnabled", { service: "translation" })),
  translate: () => Promise.reject(imError("serviceNotEnabled", { service: "translation" })),
};

const NATIVE_NAMES: Record<string, string> = {
  ar: "العربية",
  de: "Deutsch",
  en: "English",
  es: "Español",
  fr: "Français",
  hi: "हिन्दी",
  id: "Bahasa Indonesia",
  it: "Italiano",
  ja: "日本語",
  ko: "한국어",
  nl: "Nederlands",
  pl: "Polski",
  pt: "Português",
  ru: "Русский",
  th: "ไทย",
  tr: "Türkçe",
  uk: "Українська",
  vi: "Tiếng Việt",
  zh: "中文",
  "zh-Hans": "简体中文",
  "zh-Hant": "繁體中文",
};

interface LibreLanguage {
  code: string;
  name: string;
  targets?: string[];
}

export function createLibreTranslator(
  baseUrl: string,
  apiKey: string | undefined,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = 15_000,
): Translator {
  let cached: { at: number; list: LibreLanguage[] } | undefined;

  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    let res: Response;
    try {
      res = await fetchImpl(`${baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw imError("translateFailed", { reason: err instanceof Error ? err.message : "unreachable" });
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw imError("translateFailed", { reason: `HTTP ${res.status}` });
    }
    if (!res.ok) {
      const reason =
        typeof body === "object" && body !== null && "error" in body ? String(body.error) : `HTTP ${res.status}`;
      throw imError("translateFailed", { reason });
    }
    return body as T;
  }

  async function list(): Promise<LibreLanguage[]> {
    if (cached && Date.now() - cached.at < 600_000) return cached.list;
    const langs = await call<LibreLanguage[]>("/languages");
    if (!Array.isArray(langs)) throw imError("translateFailed", { reason: "bad language list" });
    cached = { at: Date.now(), list: langs };
    return langs;
  }

  return {
    enabled: true,
    async languages() {
      return (await list()).map((l) => ({ code: l.code, name: l.name, nativeName: NATIVE_NAMES[l.code] ?? l.name }));
    },
    async translate(text, targets) {
      const known = new Set((await list()).map((l) => l.code));
      if (targets.some((t) => !known.has(t))) throw imError("translateLanguageInvalid");
      const translations: { text: string; to: string }[] = [];
      let detected = { language: "", score: 0 };
      for (const target of targets) {
        const r = await call<{
          translatedText?: unknown;
          detectedLanguage?: { language?: unknown; confidence?: unknown };
        }>("/translate", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ q: text, source: "auto", target, format: "text", ...(apiKey && { api_key: apiKey }) }),
        });
        if (typeof r.translatedText !== "string") {
          throw imError("translateFailed", { reason: "no translation in reply" });
        }
        translations.push({ text: r.translatedText, to: target });
        const d = r.detectedLanguage;
        if (d && typeof d.language === "string") {
          detected = {
            language: d.language,
            score: typeof d.confidence === "number" ? Math.min(1, d.confidence / 100) : 0,
          };
        }
      }
      return { detectedLanguage: detected, translations };
    },
  };
}
