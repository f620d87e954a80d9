import { Space, Typography } from "antd";

/** A titled step of the manage drawer (authorise, template, upload, review). */
export function Section({
  title,
  children,
  extra,
}: {
  title: string;
  children: React.ReactNode;
  extra?: React.ReactNode;
}) {
  return (
    <div style={{ marginBottom: 20 }}>
      <Space style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra}
      </Space>
      <div>{children}</div>
    </div>
  );
}
