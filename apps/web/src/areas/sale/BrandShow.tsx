/** `/sale/BrandShow`: the brand's showcase on the mall's home (the page body is shared with the business' PrivateCodeMall). */
export { default } from "../../features/mall/BrandShow";
