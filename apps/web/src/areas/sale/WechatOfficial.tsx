import { OfficialAccountPage } from "../../features/miniprogram/Official";

/** `/sale/WechatOfficial`: the purchaser's official account (公众号) bound on WeChat. */
export default function WechatOfficial() {
  return (
    <OfficialAccountPage
      redirect="/sale/WechatOfficial"
      hintId="sale.WechatOfficial"
      titleKey="mp.page.WechatOfficial"
    />
  );
}
