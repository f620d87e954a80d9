/** `/business/ShopMember`: the brand's mall customers (the same page as the seller's MallMember). */
export { default } from "../../features/mall/MallMember";
