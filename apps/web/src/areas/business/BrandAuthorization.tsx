/** `/business/BrandAuthorization`: the brand's authorisations (the page body is shared with the providers' BrandAuthorizationP). */
export { default } from "../../features/docking/BrandAuthorization";
