import type { FormInstance } from "antd";
import type { ApiResult } from "../../api/envelope";

/**
 * Shows a failed call on the form: on the field the server named (`data.field`) when the form has
 * it, else as an error toast. Returns true when the call failed.
 */
export function reportFailure(
  result: ApiResult<unknown> | undefined,
  form: FormInstance,
  fields: readonly string[],
  toast: (msg: string) => void,
): boolean {
  if (result === undefined) return true;
  if (result.ok) return false;
  const field = result.data?.field;
  if (field && fields.includes(field)) {
    form.setFields([{ name: field, errors: [result.msg] }]);
  } else {
    toast(result.msg);
  }
  return true;
}
