/** `/business/ChangesFunds` (and the international `business/ChangesFunds`): the income account, shared with the providers' ChangesFundsP. */
export { default } from "../../features/funds/ChangesFunds";
