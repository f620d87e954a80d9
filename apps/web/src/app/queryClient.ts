import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/errors";

/** The one query cache. API errors are not retried: the HTTP layer already told the user. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      retry: (count, error) => !(error instanceof ApiError) && count < 1,
    },
  },
});
