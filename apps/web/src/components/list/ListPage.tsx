import { useQuery, type QueryKey } from "@tanstack/react-query";
import { App, Card, Flex, Table, type TableColumnsType, type TableProps } from "antd";
import { useMemo, useState, type Key, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PAGE_SIZES, type Page } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { http, saveFile } from "../../api/http";
import { isPageSize, mergeListState, readListState, type ListState } from "./listQuery";
import { SearchBar, type SearchBarProps } from "./SearchBar";
import type { SearchValues } from "./searchValues";

export interface ListPageProps<Row> {
  /** The search bar's configuration; its values, search and reset are handled here. */
  search: Omit<SearchBarProps, "values" | "onSearch" | "onReset" | "onExport" | "exporting" | "onBatchModify" | "onBatchDelete">;
  columns: TableColumnsType<Row>;
  rowKey: keyof Row & string;
  /** The react-query options of one page of rows for a list state. */
  query: (state: ListState) => { queryKey: QueryKey; queryFn: () => Promise<Page<Row>> };
  /** The export hook: the server's .xlsx for the current filters, downloaded with the token. */
  exportFile?: (values: SearchValues) => { path: string; query: Query; fileName: string };
  onBatchModify?: (keys: Key[]) => void;
  onBatchDelete?: (keys: Key[]) => void;
  header?: ReactNode;
  /** Horizontal scroll width for wide tables; by default the table fits its container. */
  scrollX?: number;
}

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
  const [exporting, setExporting] = useState(false);

  const go = (next: ListState) => setParams((current) => mergeListState(current, next));

  const doExport = async () => {
    if (!props.exportFile) return;
    const { path, query, fileName } = props.exportFile(state.values);
    setExporting(true);
    try {
      const result = await http.download(path, { query, fileName });
      if (result?.ok) {
        saveFile(result.data.blob, result.data.fileName);
        void message.success(t("list.exportDone"));
      }
    } finally {
      setExporting(false);
    }
  };

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
          onExport={props.exportFile ? () => void doExport() : undefined}
          exporting={exporting}
          onBatchModify={needSelection(props.onBatchModify)}
          onBatchDelete={needSelection(props.onBatchDelete)}
        />
      </Card>
      <Card variant="borderless" styles={{ body: { paddingTop: 8 } }}>
        <Table<Row>
          rowKey={props.rowKey}
          columns={props.columns}
          dataSource={data?.list ?? []}
          loading={isFetching}
          rowSelection={rowSelection}
          scroll={props.scrollX ? { x: props.scrollX } : undefined}
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
