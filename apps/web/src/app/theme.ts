import { COLOR_THEMES, type ColorTheme } from "@tessera/contracts";

/**
 * The global colour theme (spec 01 §2): themes 1-4, kept in the cookie `colorChose`. Each theme is an
 * antd primary colour fed to ConfigProvider. Pure helpers; the provider reads and writes the cookie.
 */
export const COLOR_COOKIE = "colorChose";
export const DEFAULT_COLOR_THEME: ColorTheme = 1;

export const PRIMARY_COLORS: Record<ColorTheme, string> = {
  1: "#1668dc",
  2: "#0e9384",
  3: "#6941c6",
  4: "#d4380d",
};

export function parseColorTheme(cookie: string): ColorTheme {
  for (const part of cookie.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === COLOR_COOKIE) {
      const n = Number(value);
      const found = COLOR_THEMES.find((t) => t === n);
      if (found !== undefined) return found;
    }
  }
  return DEFAULT_COLOR_THEME;
}

/** The Set-Cookie string for `document.cookie`: one year, whole site. */
export function colorThemeCookie(theme: ColorTheme): string {
  return `${COLOR_COOKIE}=${theme}; path=/; max-age=31536000; SameSite=Lax`;
}
