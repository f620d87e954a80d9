/** `/business/PrivateCodeMall`: the private code of the brand's mall and its showcase (the seller's BrandShow page). */
export { default } from "../../features/mall/BrandShow";
