export { balancesOf, checkInvariants, post, type AccountRef, type PostRequest, type PostResult, type Posting } from "./service";
