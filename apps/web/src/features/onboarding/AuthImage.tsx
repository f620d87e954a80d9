import { Image, Skeleton } from "antd";
import { useAuthImage } from "./api";

/** An uploaded image served behind the session token (documents, logos), shown with preview. */
export function AuthImage({
  path,
  alt,
  width = 160,
  height = 110,
}: {
  path: string;
  alt: string;
  width?: number;
  height?: number;
}) {
  const { data: url, isPending } = useAuthImage(path);
  if (isPending || !url) return <Skeleton.Image active style={{ width, height }} />;
  return (
    <Image
      src={url}
      alt={alt}
      width={width}
      height={height}
      style={{ objectFit: "contain", background: "#f5f5f5", borderRadius: 6 }}
    />
  );
}
