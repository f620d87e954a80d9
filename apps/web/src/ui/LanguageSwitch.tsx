import { GlobalOutlined } from "@ant-design/icons";
import { Button, Dropdown } from "antd";
import { useTranslation } from "react-i18next";
import { isLang, LANGS } from "@tessera/contracts";
import { chooseLang } from "../i18n";
import { LANGUAGE_NAMES } from "../i18n/languages";

/** cn 简体中文 / tw 繁體中文 / en English, remembered in localStorage `lang`. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = isLang(i18n.language) ? i18n.language : "cn";
  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGS.map((lang) => ({ key: lang, label: LANGUAGE_NAMES[lang] })),
        onClick: ({ key }) => {
          if (isLang(key)) chooseLang(key);
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t("header.language")} data-testid="lang-switch">
        {LANGUAGE_NAMES[current]}
      </Button>
    </Dropdown>
  );
}
