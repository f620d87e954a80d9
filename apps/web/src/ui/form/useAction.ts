import { App, type FormInstance } from "antd";
import { useState } from "react";
import type { ApiResult } from "../../api/envelope";
import { reportFailure } from "./serverError";

export interface ActionOptions<V, T> {
  /** The server call for the form's values (a mutation's `mutateAsync`). */
  run: (values: V) => Promise<ApiResult<T> | undefined>;
  /** The form's fields a failure may be shown on (the server names one in `data.field`); others toast. */
  fields?: readonly string[];
  /** What a success says (a toast); nothing when absent. */
  success?: string;
  /** What happens after a success: close the dialog, reset the form, go on. */
  then?: (data: T, values: V) => void;
}

/**
 * The one save sequence of a form (issue 39): call the server, show a failure on the field it names or as
 * a toast and stop there (the form keeps what was typed), else say so and go on. `submit` fits a Form's
 * `onFinish`; `pending` is true while the call runs, for the submit button's spinner; `submit` resolves to
 * whether it succeeded.
 */
export function useAction<V, T>(form: FormInstance<V>, options: ActionOptions<V, T>) {
  const { message } = App.useApp();
  const [pending, setPending] = useState(false);
  const submit = async (values: V): Promise<boolean> => {
    setPending(true);
    try {
      const result = await options.run(values);
      const toast = (msg: string) => void message.error(msg);
      if (reportFailure(result, form, options.fields ?? [], toast) || !result?.ok) return false;
      if (options.success) void message.success(options.success);
      options.then?.(result.data, values);
      return true;
    } finally {
      setPending(false);
    }
  };
  return { submit, pending };
}
