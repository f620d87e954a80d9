import { Flex, Spin } from "antd";

/** Shown while the first page chunk loads. */
export function FullPageSpin() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: "100vh" }}>
      <Spin size="large" />
    </Flex>
  );
}
