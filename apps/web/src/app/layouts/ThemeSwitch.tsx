import { BgColorsOutlined, CheckOutlined } from "@ant-design/icons";
import { Button, Dropdown, Flex } from "antd";
import { useTranslation } from "react-i18next";
import { COLOR_THEMES } from "@tessera/contracts";
import { useColorTheme } from "../colorTheme";
import { PRIMARY_COLORS } from "../theme";

/** Colour themes 1-4, kept in the cookie `colorChose`. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { theme, setTheme } = useColorTheme();
  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        items: COLOR_THEMES.map((n) => ({
          key: String(n),
          label: (
            <Flex align="center" gap={10} style={{ minWidth: 140 }}>
              <span
                style={{
                  width: 14,
                  height: 14,
                  borderRadius: "50%",
                  background: PRIMARY_COLORS[n],
                  display: "inline-block",
                }}
              />
              <span style={{ flex: 1 }}>{t(`theme.t${n}`)}</span>
              {theme === n && <CheckOutlined />}
            </Flex>
          ),
        })),
        onClick: ({ key }) => {
          const found = COLOR_THEMES.find((n) => String(n) === key);
          if (found !== undefined) setTheme(found);
        },
      }}
    >
      <Button type="text" icon={<BgColorsOutlined />} aria-label={t("header.theme")} title={t("header.theme")} />
    </Dropdown>
  );
}
