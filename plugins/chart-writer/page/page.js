/* global document, hermesPlugin */
// The Charts page: paste a table, press "Suggest chart"; the backend answers {job} at once and
// sends plugin.chart-writer.chart.written with the chart the model picked (or an error) later.
import { drawChart } from "./chart-svg.js";
import { parseTable } from "./table.js";

const input = document.getElementById("table-text");
const button = document.getElementById("suggest");
const status = document.getElementById("status");
const errorBox = document.getElementById("error");
const chartBox = document.getElementById("chart");

/** The job whose answer the page waits for, and the table it was asked about. */
let waiting = null;
/** Answers that came before their call's {job} did (the event and the answer race). */
const early = new Map();

// An error replaces the chart: the old chart no longer answers what was asked.
const showError = (message) => {
  errorBox.textContent = message;
  errorBox.hidden = !message;
  if (message) chartBox.replaceChildren();
};

const setWorking = (working) => {
  button.disabled = working;
  status.textContent = working ? "Working on it… the model is picking a chart." : "";
};

/** Plain words for a refused call. */
function describeRefusal(error) {
  const message = String(error && error.message);
  if (/is busy/.test(message))
    return "Busy: four charts are being written already. Try again when one is done.";
  if (error && error.reason === "plugin_timeout") return "The plugin did not answer in time. Try again.";
  if (error && error.reason === "plugin_not_found")
    return "The Charts plugin is not running; enable it in Settings → Plugins.";
  return message.replace(/^plugin\.[^ ]+ failed: /, "");
}

function show(payload) {
  const { table } = waiting;
  waiting = null;
  setWorking(false);
  if (payload.error) return showError(payload.error);
  try {
    chartBox.replaceChildren(drawChart(table, payload.chart));
    showError("");
  } catch (error) {
    showError(error.message);
  }
}

hermesPlugin.on("chart.written", (payload) => {
  if (waiting && payload.job === waiting.job) show(payload);
  else early.set(payload.job, payload);
});

// A sandboxed page can't submit forms: a button and Ctrl/⌘+Enter in the table field.
async function suggest() {
  showError("");
  let table;
  try {
    table = parseTable(input.value);
  } catch (error) {
    return showError(error.message);
  }
  setWorking(true);
  try {
    const { job } = await hermesPlugin.request("chart.suggest", { text: input.value });
    waiting = { job, table };
    if (early.has(job)) {
      const payload = early.get(job);
      early.delete(job);
      show(payload);
    }
  } catch (error) {
    setWorking(false);
    showError(describeRefusal(error));
  }
}

button.addEventListener("click", () => void suggest());
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) void suggest();
});
