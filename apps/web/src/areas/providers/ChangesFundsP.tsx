import ChangesFunds from "../../features/funds/ChangesFunds";

/** `/providers/ChangesFundsP`: the service provider's income account, the same list as a supplier's. */
export default ChangesFunds;
