import { createContext, useContext } from "react";
import type { ColorTheme } from "@tessera/contracts";
import { DEFAULT_COLOR_THEME } from "./theme";

export interface ColorThemeState {
  theme: ColorTheme;
  setTheme: (theme: ColorTheme) => void;
}

export const ColorThemeContext = createContext<ColorThemeState>({
  theme: DEFAULT_COLOR_THEME,
  setTheme: () => undefined,
});

export function useColorTheme(): ColorThemeState {
  return useContext(ColorThemeContext);
}
