import { MailOutlined } from "@ant-design/icons";
import type { AreaDef } from "../../ui/areas";

/**
 * Developer tools (`/dev`), shown only while the local mail/SMS adapter is active.
 * One line per page, in menu order (see ./types.ts).
 */
export const dev: AreaDef = {
  id: "dev",
  base: "/dev",
  nameKey: "area.dev",
  version: null,
  devOnly: true,
  pages: [
    {
      path: "mailbox",
      load: () => import("../../features/dev/Mailbox"),
      titleKey: "title.mailbox",
      menuKey: "menu.mailbox",
      icon: MailOutlined,
    },
  ],
};
