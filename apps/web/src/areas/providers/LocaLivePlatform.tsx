import { LocalLifePage } from "../../features/miniprogram/Official";

/** `/providers/LocaLivePlatform`: the local-life platform's authorisation of the brands the provider serves. */
export default function LocaLivePlatform() {
  return <LocalLifePage />;
}
