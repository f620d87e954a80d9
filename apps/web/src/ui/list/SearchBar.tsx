import {
  CloudUploadOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
} from "@ant-design/icons";
import { Button, Cascader, DatePicker, Flex, Form, Input, Select, Space, Tooltip, type CascaderProps } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { digitsOnly } from "@tessera/contracts";
import { MONTH_SHORTCUTS, monthShortcutRange } from "./dateShortcuts";
import { useDatePresets } from "./useDatePresets";
import { toFormValues, toSearchValues, type DateMode, type SearchFormValues, type SearchValues } from "./searchValues";

export interface InputKey {
  value: string;
  label: string;
  /** Number-type key: the input keeps digits only, up to 18 (spec 01 §2). */
  numeric?: boolean;
}

export interface SelectKey {
  value: string;
  label: string;
  options: { value: string; label: string }[];
  /**
   * The value the filter has when the URL names none, shown in the select (a review queue opens on
   * "pending" and says so; an "all" option then shows everything). Such a select cannot be cleared.
   */
  defaultValue?: string;
}

export interface SelectConfig {
  keys: SelectKey[];
  multiple?: boolean;
}

export interface SearchBarProps {
  values: SearchValues;
  onSearch: (values: SearchValues) => void;
  onReset: () => void;
  /** Optional add button at the start of the bar. */
  add?: { label: string; onClick: () => void };
  /** Date-range, datetime-range, month-range or single-month picker. */
  dateMode?: DateMode;
  dateLabel?: string;
  /** Key + text input. */
  input?: { keys: InputKey[] };
  /** One or two key + value selects. */
  select?: SelectConfig;
  selectT?: SelectConfig;
  /** Region or category cascader. */
  cascader?: { options: CascaderProps["options"]; placeholder?: string };
  onExport?: () => void;
  exporting?: boolean;
  onBatchModify?: () => void;
  onBatchDelete?: () => void;
  onBatchUpload?: () => void;
}

/** Key select + value select, form fields `keyName` and `valName`. */
function KeySelect({
  config,
  keyName,
  valName,
}: {
  config: SelectConfig;
  keyName: "selKey" | "selKeyT";
  valName: "selVal" | "selValT";
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<SearchFormValues>();
  const chosenKey = Form.useWatch(keyName, form) ?? config.keys[0]?.value;
  const chosen = config.keys.find((k) => k.value === chosenKey);
  const options = chosen?.options ?? [];
  return (
    <Space.Compact>
      {config.keys.length > 1 && (
        <Form.Item name={keyName} noStyle>
          <Select
            style={{ width: 130 }}
            options={config.keys.map((k) => ({ value: k.value, label: k.label }))}
            onChange={() => form.setFieldValue(valName, undefined)}
            aria-label={t("search.field")}
          />
        </Form.Item>
      )}
      <Form.Item name={valName} noStyle>
        <Select
          allowClear={chosen?.defaultValue === undefined}
          mode={config.multiple ? "multiple" : undefined}
          maxTagCount="responsive"
          style={{ width: 200 }}
          options={options}
          placeholder={config.keys.length === 1 ? config.keys[0]?.label : t("search.choose")}
          aria-label={config.keys.find((k) => k.value === chosenKey)?.label}
        />
      </Form.Item>
    </Space.Compact>
  );
}

/**
 * The search/filter bar of spec 01 §2, configured by props. Its form fields are the spec's names:
 * inpKey, inpVal, selKey, selVal, selKeyT, selValT, date, month, curCascader.
 */
export function SearchBar(props: SearchBarProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SearchFormValues>();
  const { values, dateMode, input, select, selectT } = props;

  const defaults = useMemo<SearchFormValues>(
    () => ({
      inpKey: input?.keys[0]?.value,
      selKey: select?.keys[0]?.value,
      selVal: select?.keys[0]?.defaultValue,
      selKeyT: selectT?.keys[0]?.value,
    }),
    [input, select, selectT],
  );

  // The URL is the source of truth: show its values whenever they change (back button, reset).
  useEffect(() => {
    const fv = toFormValues(values, dateMode);
    const normalise = (v: string | string[] | undefined, multiple?: boolean) =>
      v === undefined ? undefined : multiple ? (Array.isArray(v) ? v : [v]) : Array.isArray(v) ? v[0] : v;
    form.resetFields();
    form.setFieldsValue({
      ...defaults,
      ...Object.fromEntries(Object.entries(fv).filter(([, v]) => v !== undefined)),
      selVal: normalise(fv.selVal, select?.multiple) ?? defaults.selVal,
      selValT: normalise(fv.selValT, selectT?.multiple),
    });
  }, [values, dateMode, defaults, form, select?.multiple, selectT?.multiple]);

  const inpKey = Form.useWatch("inpKey", form) ?? input?.keys[0]?.value;
  const numeric = input?.keys.find((k) => k.value === inpKey)?.numeric ?? false;

  const datePresets = useDatePresets();
  const monthRangePresets = MONTH_SHORTCUTS.map((key) => ({
    label: t(`search.shortcut.${key}`),
    value: () => monthShortcutRange(key, dayjs()),
  }));
  const monthPresets = (["thisMonth", "lastMonth"] as const).map((key) => ({
    label: t(`search.shortcut.${key}`),
    value: (): Dayjs => monthShortcutRange(key, dayjs())[0],
  }));

  const iconActions = [
    props.onExport && {
      key: "export",
      icon: <DownloadOutlined />,
      label: t("search.export"),
      onClick: props.onExport,
      loading: props.exporting,
    },
    props.onBatchModify && {
      key: "modify",
      icon: <EditOutlined />,
      label: t("search.batchModify"),
      onClick: props.onBatchModify,
    },
    props.onBatchDelete && {
      key: "delete",
      icon: <DeleteOutlined />,
      label: t("search.batchDelete"),
      onClick: props.onBatchDelete,
    },
    props.onBatchUpload && {
      key: "upload",
      icon: <CloudUploadOutlined />,
      label: t("search.batchUpload"),
      onClick: props.onBatchUpload,
    },
  ].filter((a) => !!a);

  return (
    <Form<SearchFormValues>
      form={form}
      layout="inline"
      onFinish={(v) => props.onSearch(toSearchValues(v, dateMode))}
      style={{ rowGap: 12 }}
    >
      {props.add && (
        <Form.Item>
          <Button type="primary" icon={<PlusOutlined />} onClick={props.add.onClick}>
            {props.add.label}
          </Button>
        </Form.Item>
      )}
      {(dateMode === "date" || dateMode === "datetime") && (
        <Form.Item name="date" label={props.dateLabel}>
          <DatePicker.RangePicker
            showTime={dateMode === "datetime"}
            presets={datePresets}
            allowClear
            style={{ width: dateMode === "datetime" ? 380 : 260 }}
          />
        </Form.Item>
      )}
      {dateMode === "monthRange" && (
        <Form.Item name="month" label={props.dateLabel}>
          <DatePicker.RangePicker picker="month" presets={monthRangePresets} allowClear style={{ width: 240 }} />
        </Form.Item>
      )}
      {dateMode === "month" && (
        <Form.Item name="month" label={props.dateLabel}>
          <DatePicker picker="month" presets={monthPresets} allowClear />
        </Form.Item>
      )}
      {input && (
        <Form.Item>
          <Space.Compact>
            {input.keys.length > 1 && (
              <Form.Item name="inpKey" noStyle>
                <Select
                  style={{ width: 130 }}
                  options={input.keys.map((k) => ({ value: k.value, label: k.label }))}
                  onChange={() => form.setFieldValue("inpVal", undefined)}
                  aria-label={t("search.field")}
                />
              </Form.Item>
            )}
            <Form.Item
              name="inpVal"
              noStyle
              normalize={(v: string | undefined) => (numeric && typeof v === "string" ? digitsOnly(v) : v)}
            >
              <Input
                allowClear
                style={{ width: 220 }}
                inputMode={numeric ? "numeric" : undefined}
                placeholder={input.keys.length === 1 ? input.keys[0]?.label : t("search.keyword")}
                aria-label={input.keys.find((k) => k.value === inpKey)?.label}
              />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      )}
      {select && (
        <Form.Item>
          <KeySelect config={select} keyName="selKey" valName="selVal" />
        </Form.Item>
      )}
      {selectT && (
        <Form.Item>
          <KeySelect config={selectT} keyName="selKeyT" valName="selValT" />
        </Form.Item>
      )}
      {props.cascader && (
        <Form.Item name="curCascader">
          <Cascader
            options={props.cascader.options}
            placeholder={props.cascader.placeholder}
            changeOnSelect
            allowClear
            style={{ width: 220 }}
          />
        </Form.Item>
      )}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t("search.search")}
          </Button>
          <Button icon={<ReloadOutlined />} onClick={props.onReset}>
            {t("search.reset")}
          </Button>
          {/* The icons stay on the buttons' line (issue 25 item 4: the export icon sat alone on a second row). */}
          {iconActions.length > 0 && (
            <Flex gap={4} data-testid="search-icons">
              {iconActions.map((a) => (
                <Tooltip key={a.key} title={a.label}>
                  <Button
                    icon={a.icon}
                    onClick={a.onClick}
                    loading={"loading" in a ? a.loading : undefined}
                    aria-label={a.label}
                    data-testid={`search-${a.key}`}
                  />
                </Tooltip>
              ))}
            </Flex>
          )}
        </Space>
      </Form.Item>
    </Form>
  );
}
