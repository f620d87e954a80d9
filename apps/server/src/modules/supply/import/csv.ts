import { StringDecoder } from "node:string_decoder";

/** Thrown for a file that is not readable CSV: a quote never closed, a record over the size limit. */
export class CsvError extends Error {}

/**
 * A streaming CSV reader (RFC 4180, comma-separated, LF or CRLF records) made for million-row card
 * imports: it hands back the records of each chunk of input at once, and a record without quotes costs
 * one slice and one split. A general parser costs several kilobytes of short-lived objects per row,
 * enough to let the server's heap grow by a hundred megabytes during such an import.
 *
 * Lenient where spreadsheets are sloppy: a quote inside an unquoted field is an ordinary character, and
 * so is text after a closing quote; records may have any number of fields; an empty line is a record
 * with one empty field (so record numbers match the lines a spreadsheet shows). A byte-order mark at
 * the start is dropped.
 */
export class CsvReader {
  private readonly decoder = new StringDecoder("utf8");
  /** Input not yet made into records: the start of an unfinished record. */
  private rest = "";
  private started = false;

  constructor(private readonly maxRecordChars = 64 * 1024) {}

  /** The records completed by this chunk of input. */
  push(chunk: Buffer | string): string[][] {
    let text = this.rest + (typeof chunk === "string" ? chunk : this.decoder.write(chunk));
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const records: string[][] = [];
    this.rest = text.slice(this.parse(text, records, false));
    if (this.rest.length > this.maxRecordChars) {
      throw new CsvError(`a record is longer than ${this.maxRecordChars} characters`);
    }
    return records;
  }

  /** The last records, at the end of the input. */
  end(): string[][] {
    const text = this.rest + this.decoder.end();
    this.rest = "";
    const records: string[][] = [];
    this.parse(text, records, true);
    return records;
  }

  /** Appends the complete records of `text` to `out`; returns where the unfinished one starts. */
  private parse(text: string, out: string[][], final: boolean): number {
    let pos = 0;
    while (pos < text.length) {
      const nl = text.indexOf("\n", pos);
      if (nl < 0 && !final) return pos;
      const lineEnd = nl < 0 ? text.length : nl;
      const quote = text.indexOf('"', pos);
      if (quote < 0 || quote > lineEnd) {
        // No quote on this line: the common case, one record per line.
        const line = text.slice(pos, lineEnd > pos && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd);
        if (line.length > this.maxRecordChars) {
          throw new CsvError(`a record is longer than ${this.maxRecordChars} characters`);
        }
        out.push(line.split(","));
        pos = lineEnd + 1;
        continue;
      }
      const next = this.quotedRecord(text, pos, out, final);
      if (next < 0) return pos;
      pos = next;
    }
    return pos;
  }

  /**
   * One record that has a quote somewhere, character by character (a quoted field may hold commas and
   * line breaks). Returns the position after the record, or -1 when the record does not end in `text`.
   */
  private quotedRecord(text: string, start: number, out: string[][], final: boolean): number {
    const fields: string[] = [];
    let field = "";
    let pos = start;
    let fieldStart = true;
    for (;;) {
      if (pos - start > this.maxRecordChars) {
        throw new CsvError(`a record is longer than ${this.maxRecordChars} characters`);
      }
      if (pos >= text.length) {
        if (!final) return -1;
        fields.push(field);
        out.push(fields);
        return pos;
      }
      const c = text.charCodeAt(pos);
      if (fieldStart && c === 34) {
        // A quoted field: up to the quote not followed by another ("" is one quote).
        let end = pos + 1;
        for (;;) {
          const q = text.indexOf('"', end);
          if (q < 0) {
            if (final) throw new CsvError("a quoted field is never closed");
            return -1;
          }
          if (text.charCodeAt(q + 1) === 34) {
            field += text.slice(end, q + 1);
            end = q + 2;
            continue;
          }
          if (q + 1 >= text.length && !final) return -1;
          field += text.slice(end, q);
          pos = q + 1;
          break;
        }
        fieldStart = false;
        continue;
      }
      fieldStart = false;
      if (c === 44) {
        fields.push(field);
        field = "";
        fieldStart = true;
        pos += 1;
      } else if (c === 10 || (c === 13 && text.charCodeAt(pos + 1) === 10)) {
        fields.push(field);
        out.push(fields);
        return pos + (c === 13 ? 2 : 1);
      } else if (c === 13 && pos + 1 >= text.length && !final) {
        return -1;
      } else {
        field += text[pos];
        pos += 1;
      }
    }
  }
}
