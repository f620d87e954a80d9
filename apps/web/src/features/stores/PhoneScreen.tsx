import { Flex, Typography } from "antd";
import { useLayoutEffect, useRef, type ReactNode } from "react";
import { LanguageSwitch } from "../../ui/LanguageSwitch";
import { hideAround } from "../../ui/hideAround";

/** A phone screen of its own (clerk verification, scanned codes): a narrow column with a title bar. */
export function PhoneScreen({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  const screen = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => hideAround(screen.current), []);
  return (
    <div ref={screen} style={{ position: "fixed", inset: 0, zIndex: 1001, overflowY: "auto", background: "#f5f6f8" }}>
      <div style={{ maxWidth: 480, width: "100%", margin: "0 auto", minHeight: "100%" }}>
        <Flex
          align="center"
          justify="space-between"
          style={{ padding: "12px 16px", background: "#fff", borderBottom: "1px solid #eee" }}
        >
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Flex gap={8} align="center">
            {extra}
            <LanguageSwitch />
          </Flex>
        </Flex>
        <div style={{ padding: 16 }}>{children}</div>
      </div>
    </div>
  );
}
