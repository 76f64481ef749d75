// CSV for the exports people open in spreadsheets (selections, the audit log, a client's data).

/** A CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value == null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, CRLF-ended as RFC 4180 writes it. */
export const csvLine = (cells: (string | number | boolean | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;
