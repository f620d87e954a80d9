import type { ColumnType } from "kysely";

/** Column helpers shared by the modules' table types. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A bigserial/identity key: generated on insert, never updated. */
export type Id = ColumnType<number, number | undefined, never>;
