import { MiniProgramConsole } from "../../features/miniprogram/Console";

/** `/providers/TiktokApplet`: Douyin (short-video platform) mini-programs. */
export default function TiktokApplet() {
  return <MiniProgramConsole platform="douyin" hintId="providers.TiktokApplet" />;
}
