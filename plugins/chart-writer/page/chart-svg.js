/* global document */
// Draws the chart the model picked as SVG from the table's own numbers: bar, line, pie or scatter.
// No third-party chart code or service. Returns an <svg> element, or throws an Error in plain words.
import { cellNumber } from "./table.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { top: 36, right: 20, bottom: 56, left: 56 };
const COLORS = ["#4c6ef5", "#f76707", "#2f9e44", "#e64980", "#7048e8", "#1098ad", "#f59f00", "#868e96"];

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function columnIndex(table, name) {
  const wanted = String(name).trim().toLowerCase();
  const index = table.columns.findIndex((column) => column.trim().toLowerCase() === wanted);
  if (index < 0) throw new Error(`The model named a column "${name}" that is not in the table.`);
  return index;
}

function numbers(table, index) {
  const values = table.rows.map((row) => cellNumber(row[index]));
  if (values.every((value) => value === null))
    throw new Error(`The column "${table.columns[index]}" holds no numbers to plot.`);
  return values.map((value) => value ?? 0);
}

/** About five round tick values from min to max. */
function ticks(min, max) {
  if (min === max) max = min + 1;
  const raw = (max - min) / 5;
  const step = 10 ** Math.floor(Math.log10(raw));
  const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let v = Math.floor(min / nice) * nice; v <= max + nice / 2; v += nice) out.push(Number(v.toFixed(10)));
  return out;
}

function frame(svg, yTicks, scaleY) {
  const plotRight = WIDTH - MARGIN.right;
  for (const tick of yTicks) {
    const y = scaleY(tick);
    svg.append(el("line", { class: "grid", x1: MARGIN.left, x2: plotRight, y1: y, y2: y }));
    svg.append(el("text", { x: MARGIN.left - 6, y: y + 4, "text-anchor": "end" }, String(tick)));
  }
  const bottom = HEIGHT - MARGIN.bottom;
  svg.append(el("line", { class: "axis", x1: MARGIN.left, x2: plotRight, y1: bottom, y2: bottom }));
  svg.append(el("line", { class: "axis", x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: bottom }));
}

function valueScale(values, fromZero) {
  const min = fromZero ? Math.min(0, ...values) : Math.min(...values);
  const max = Math.max(fromZero ? 0 : min, ...values);
  const yTicks = ticks(min, max);
  const lo = yTicks[0];
  const hi = yTicks[yTicks.length - 1];
  const span = hi - lo || 1;
  return {
    yTicks,
    scale: (v) => HEIGHT - MARGIN.bottom - ((v - lo) / span) * (HEIGHT - MARGIN.top - MARGIN.bottom),
  };
}

function xLabels(svg, labels, center) {
  labels.forEach((label, i) =>
    svg.append(el("text", { x: center(i), y: HEIGHT - MARGIN.bottom + 18, "text-anchor": "middle" }, label)),
  );
}

function legend(svg, names) {
  if (names.length < 2) return;
  names.forEach((name, i) => {
    const x = MARGIN.left + i * 120;
    svg.append(el("rect", { x, y: HEIGHT - 18, width: 10, height: 10, fill: COLORS[i % COLORS.length] }));
    svg.append(el("text", { x: x + 14, y: HEIGHT - 9 }, name));
  });
}

function drawBar(svg, table, xIndex, yIndexes) {
  const series = yIndexes.map((i) => numbers(table, i));
  const { yTicks, scale } = valueScale(series.flat(), true);
  frame(svg, yTicks, scale);
  const band = (WIDTH - MARGIN.left - MARGIN.right) / table.rows.length;
  const barWidth = (band * 0.8) / series.length;
  series.forEach((values, s) =>
    values.forEach((value, i) => {
      const x = MARGIN.left + i * band + band * 0.1 + s * barWidth;
      const top = Math.min(scale(value), scale(0));
      svg.append(
        el("rect", {
          class: "bar",
          x,
          y: top,
          width: Math.max(1, barWidth - 2),
          height: Math.abs(scale(value) - scale(0)),
          fill: COLORS[s % COLORS.length],
        }),
      );
    }),
  );
  xLabels(
    svg,
    table.rows.map((row) => row[xIndex]),
    (i) => MARGIN.left + i * band + band / 2,
  );
  legend(
    svg,
    yIndexes.map((i) => table.columns[i]),
  );
}

function drawLine(svg, table, xIndex, yIndexes) {
  const series = yIndexes.map((i) => numbers(table, i));
  const { yTicks, scale } = valueScale(series.flat(), false);
  frame(svg, yTicks, scale);
  const count = table.rows.length;
  const step = (WIDTH - MARGIN.left - MARGIN.right) / Math.max(1, count - 1);
  const xAt = (i) => (count === 1 ? (WIDTH + MARGIN.left - MARGIN.right) / 2 : MARGIN.left + i * step);
  series.forEach((values, s) => {
    const points = values.map((value, i) => `${xAt(i)},${scale(value)}`).join(" ");
    svg.append(
      el("polyline", {
        class: "line",
        points,
        fill: "none",
        stroke: COLORS[s % COLORS.length],
        "stroke-width": 2,
      }),
    );
    values.forEach((value, i) =>
      svg.append(el("circle", { cx: xAt(i), cy: scale(value), r: 3, fill: COLORS[s % COLORS.length] })),
    );
  });
  xLabels(
    svg,
    table.rows.map((row) => row[xIndex]),
    xAt,
  );
  legend(
    svg,
    yIndexes.map((i) => table.columns[i]),
  );
}

function drawPie(svg, table, xIndex, yIndexes) {
  const values = numbers(table, yIndexes[0]).map((v) => Math.max(0, v));
  const total = values.reduce((a, b) => a + b, 0);
  if (total <= 0) throw new Error("A pie needs positive numbers; this column adds up to nothing.");
  const cx = WIDTH / 2 - 80;
  const cy = (HEIGHT + MARGIN.top - 20) / 2;
  const r = Math.min(WIDTH, HEIGHT) / 2 - 50;
  let angle = -Math.PI / 2;
  values.forEach((value, i) => {
    const sweep = (value / total) * Math.PI * 2;
    const color = COLORS[i % COLORS.length];
    if (sweep >= Math.PI * 2 - 1e-9) {
      svg.append(el("circle", { class: "slice", cx, cy, r, fill: color }));
    } else if (sweep > 0) {
      const [x1, y1] = [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
      const [x2, y2] = [cx + r * Math.cos(angle + sweep), cy + r * Math.sin(angle + sweep)];
      const large = sweep > Math.PI ? 1 : 0;
      svg.append(
        el("path", {
          class: "slice",
          d: `M${cx},${cy} L${x1},${y1} A${r},${r} 0 ${large} 1 ${x2},${y2} Z`,
          fill: color,
        }),
      );
    }
    angle += sweep;
    const ly = MARGIN.top + i * 20;
    svg.append(el("rect", { x: WIDTH - 190, y: ly, width: 10, height: 10, fill: color }));
    const share = Math.round((value / total) * 100);
    svg.append(el("text", { x: WIDTH - 175, y: ly + 9 }, `${table.rows[i][xIndex]} (${share} %)`));
  });
}

function drawScatter(svg, table, xIndex, yIndexes) {
  const xs = numbers(table, xIndex);
  const ys = numbers(table, yIndexes[0]);
  const { yTicks, scale } = valueScale(ys, false);
  frame(svg, yTicks, scale);
  const xTicks = ticks(Math.min(...xs), Math.max(...xs));
  const lo = xTicks[0];
  const span = xTicks[xTicks.length - 1] - lo || 1;
  const scaleX = (v) => MARGIN.left + ((v - lo) / span) * (WIDTH - MARGIN.left - MARGIN.right);
  xTicks.forEach((tick) =>
    svg.append(
      el("text", { x: scaleX(tick), y: HEIGHT - MARGIN.bottom + 18, "text-anchor": "middle" }, String(tick)),
    ),
  );
  xs.forEach((x, i) =>
    svg.append(el("circle", { class: "point", cx: scaleX(x), cy: scale(ys[i]), r: 4, fill: COLORS[0] })),
  );
  svg.append(el("text", { x: WIDTH / 2, y: HEIGHT - 14, "text-anchor": "middle" }, table.columns[xIndex]));
}

const drawers = { bar: drawBar, line: drawLine, pie: drawPie, scatter: drawScatter };

/** chart: {kind, title, x, y: [column…]} as the model picked it. */
export function drawChart(table, chart) {
  const draw = drawers[chart && chart.kind];
  if (!draw)
    throw new Error(`The model picked a chart kind this page can't draw ("${chart && chart.kind}").`);
  const xIndex = columnIndex(table, chart.x);
  const ys = Array.isArray(chart.y) ? chart.y : [chart.y];
  const yIndexes = ys.map((name) => columnIndex(table, name));
  if (yIndexes.length === 0) throw new Error("The model named no column to plot.");
  const title = String(chart.title || "Chart");
  const svg = el("svg", {
    xmlns: NS,
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    width: WIDTH,
    height: HEIGHT,
    role: "img",
    "aria-label": `${chart.kind} chart: ${title}`,
    "data-kind": chart.kind,
  });
  svg.append(el("title", {}, title));
  svg.append(el("text", { x: WIDTH / 2, y: 20, "text-anchor": "middle", "font-weight": 600 }, title));
  draw(svg, table, xIndex, yIndexes);
  return svg;
}
