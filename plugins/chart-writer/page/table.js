// Reads a pasted table: a Markdown table (| a | b |, with its |---| line) or CSV (commas, or tabs
// and semicolons when the header uses them; "quoted, fields" work). Returns {columns, rows} or
// throws an Error in plain words.

function splitCsvLine(line, separator) {
  const cells = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell.trim() === "") {
      quoted = true;
      cell = "";
    } else if (ch === separator) {
      cells.push(cell.trim());
      cell = "";
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

function splitMarkdownLine(line) {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim());
}

const isDividerRow = (cells) => cells.every((cell) => /^:?-{1,}:?$/.test(cell));

export function parseTable(text) {
  const lines = String(text)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (lines.length < 2) throw new Error("Paste a table with a header row and at least one row of data.");
  let rows;
  if (lines[0].startsWith("|")) {
    rows = lines.map(splitMarkdownLine).filter((cells) => !isDividerRow(cells));
  } else {
    const header = lines[0];
    const separator = header.includes("\t")
      ? "\t"
      : header.includes(";") && !header.includes(",")
        ? ";"
        : ",";
    rows = lines.map((line) => splitCsvLine(line, separator));
  }
  const [columns, ...data] = rows;
  if (!columns || columns.length < 2) throw new Error("The table needs at least two columns.");
  if (data.length === 0) throw new Error("The table has a header but no rows of data.");
  const width = columns.length;
  return { columns, rows: data.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? "")) };
}

/** A number from a cell ("1,200", "45%", "$3.50", "-2"), or null. */
export function cellNumber(cell) {
  const cleaned = String(cell).replace(/[\s,%$€£]/g, "");
  if (cleaned === "" || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned)) return null;
  return Number(cleaned);
}
