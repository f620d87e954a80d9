/** `/business/aggregateIncoming`: aggregated onboarding for payment collection (the page body is shared with the providers' paymentApplication). */
export { default } from "../../features/collection/aggregateIncoming";
