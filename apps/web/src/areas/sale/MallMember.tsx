/** `/sale/MallMember`: the mall's customers (the page body is shared with the business' ShopMember). */
export { default } from "../../features/mall/MallMember";
