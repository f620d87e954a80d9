import ChangesFunds from "../business/ChangesFunds";

/** `/providers/ChangesFundsP`: the service provider's income account, the same list as a supplier's. */
export default ChangesFunds;
