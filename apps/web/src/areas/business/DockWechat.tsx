import { OfficialAccountPage } from "../../features/miniprogram/Official";

/** `/business/DockWechat`: the brand's WeChat docking: its official account (公众号) bound on the platform. */
export default function DockWechat() {
  return (
    <OfficialAccountPage redirect="/business/DockWechat" hintId="business.DockWechat" titleKey="mp.page.DockWechat" />
  );
}
