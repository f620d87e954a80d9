// Apart from Logo.tsx (antd, router): the light login screen (src/login) draws it too.
/** The Tessera mark: four tiles of a mosaic, in the theme colour. */
export function LogoMark({ size = 28, color }: { size?: number; color: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect x="2" y="2" width="13" height="13" rx="3" fill={color} />
      <rect x="17" y="2" width="13" height="13" rx="3" fill={color} opacity="0.55" />
      <rect x="2" y="17" width="13" height="13" rx="3" fill={color} opacity="0.55" />
      <rect x="17" y="17" width="13" height="13" rx="3" fill={color} opacity="0.25" />
    </svg>
  );
}
