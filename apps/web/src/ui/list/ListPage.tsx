import { useQuery, type QueryKey } from "@tanstack/react-query";
import { App, Card, Flex, Table, type TableColumnsType, type TableProps } from "antd";
import { useMemo, useState, type Key, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PAGE_SIZES, type Page } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { isPageSize, mergeListState, readListState, type ListState } from "./listQuery";
import { SearchBar, type SearchBarProps } from "./SearchBar";
import { dense, DENSE_SCROLL_X, DENSE_TABLE_LAYOUT } from "./denseColumns";
import { useExport } from "./useExport";
import type { SearchValues } from "./searchValues";

export interface ListPageProps<Row> {
  /** The search bar's configuration; its values, search and reset are handled here. */
  search: Omit<
    SearchBarProps,
    "values" | "onSearch" | "onReset" | "onExport" | "exporting" | "onBatchModify" | "onBatchDelete"
  >;
  columns: TableColumnsType<Row>;
  rowKey: keyof Row & string;
  /** The react-query options of one page of rows for a list state. */
  query: (state: ListState) => { queryKey: QueryKey; queryFn: () => Promise<Page<Row>> };
  /**
   * The export hook: the server's .xlsx for the current filters, downloaded with the token. Without it the
   * list still exports (issue 25 item 6): every row of the current filters, read through `query` a
   * thousand at a time, as the table's columns show them (`exportable: false` turns that off).
   */
  exportFile?: (values: SearchValues) => { path: string; query: Query; fileName: string };
  /** False for a list that must not leave the screen; true by default. */
  exportable?: boolean;
  /** The exported file's name without extension (default: the page title). */
  exportName?: string;
  onBatchModify?: (keys: Key[]) => void;
  onBatchDelete?: (keys: Key[]) => void;
  header?: ReactNode;
  /**
   * Ignored (kept for the pages that still pass it): the table is as wide as its columns' content and scrolls sideways only when that
   * exceeds the screen (denseColumns, issue 40 item 15). A fixed width made the table wider than a 1280 px
   * screen and slid amounts and states under the action column.
   */
  scrollX?: number;
  /** What an empty list says instead of "no data" (where the rows the user expects are elsewhere). */
  empty?: ReactNode;
}

/** The default export reads the list a thousand rows at a time (the largest page size), at most 100 pages. */
const EXPORT_PAGE_SIZE = 1000;
const MAX_EXPORT_PAGES = 100;

/**
 * A list page (spec 01 §2): SearchBar + table + pagination (20/50/100/200/1000) + export. Page,
 * page size and filters live in the URL query.
 */
export function ListPage<Row extends object>(props: ListPageProps<Row>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const { data, isFetching } = useQuery({ ...props.query(state), placeholderData: (prev) => prev });
  const [selected, setSelected] = useState<Key[]>([]);

  const go = (next: ListState) => setParams((current) => mergeListState(current, next));

  const exportList = useExport();
  const doExport = () => {
    const file = props.exportFile?.(state.values);
    return exportList.run<Row>(
      file
        ? { kind: "server", ...file }
        : {
            kind: "rows",
            columns: props.columns,
            name: props.exportName ?? document.title.split(" - ")[0] ?? "export",
            // Every row of the current filters, a thousand at a time (the largest page size).
            rows: async () => {
              const rows: Row[] = [];
              for (let page = 1; page <= MAX_EXPORT_PAGES; page++) {
                const chunk = await props.query({ page, pageSize: EXPORT_PAGE_SIZE, values: state.values }).queryFn();
                rows.push(...chunk.list);
                if (chunk.list.length < EXPORT_PAGE_SIZE || rows.length >= chunk.total) break;
              }
              return rows;
            },
          },
    );
  };

  const denseColumns = useMemo(() => dense(props.columns), [props.columns]);
  const batch = Boolean(props.onBatchModify || props.onBatchDelete);
  const rowSelection: TableProps<Row>["rowSelection"] = batch
    ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys) }
    : undefined;
  const needSelection = (fn?: (keys: Key[]) => void) =>
    fn
      ? () => {
          if (selected.length === 0) void message.warning(t("list.selectFirst"));
          else fn(selected);
        }
      : undefined;

  return (
    <Flex vertical gap={16}>
      {props.header}
      <Card variant="borderless">
        <SearchBar
          {...props.search}
          values={state.values}
          onSearch={(values) => go({ page: 1, pageSize: state.pageSize, values })}
          onReset={() => go({ page: 1, pageSize: state.pageSize, values: {} })}
          onExport={props.exportFile || props.exportable !== false ? () => void doExport() : undefined}
          exporting={exportList.exporting}
          onBatchModify={needSelection(props.onBatchModify)}
          onBatchDelete={needSelection(props.onBatchDelete)}
        />
      </Card>
      <Card variant="borderless" styles={{ body: { paddingTop: 8 } }}>
        <Table<Row>
          rowKey={props.rowKey}
          columns={denseColumns}
          size="small"
          tableLayout={DENSE_TABLE_LAYOUT}
          dataSource={data?.list ?? []}
          loading={isFetching}
          {...(props.empty !== undefined && { locale: { emptyText: props.empty } })}
          rowSelection={rowSelection}
          scroll={{ x: DENSE_SCROLL_X }}
          pagination={{
            current: state.page,
            pageSize: state.pageSize,
            total: data?.total ?? 0,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            showQuickJumper: true,
            showTotal: (total) => t("list.total", { total }),
            onChange: (page, pageSize) => {
              const size = isPageSize(pageSize) ? pageSize : state.pageSize;
              go({ page: size === state.pageSize ? page : 1, pageSize: size, values: state.values });
            },
          }}
        />
      </Card>
    </Flex>
  );
}
