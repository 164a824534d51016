/* global document, hermesPlugin */
// The Action items page: this chat's items (items.list), each with a box to tick it off
// (items.setDone); items.changed reads them again.

const list = document.getElementById("items");
const summary = document.getElementById("summary");
const errorBox = document.getElementById("error");

const showError = (message) => {
  errorBox.textContent = message;
  errorBox.hidden = !message;
};

function render(items) {
  list.replaceChildren();
  const open = items.filter((item) => !item.done).length;
  summary.textContent =
    items.length === 0
      ? "No action items in this chat yet. They appear after a reply that makes commitments."
      : `${items.length} item${items.length === 1 ? "" : "s"}, ${open} open.`;
  for (const item of items) {
    const row = document.createElement("li");
    if (item.done) row.dataset.done = "";
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = item.done;
    box.addEventListener("change", () => void setDone(item.id, box.checked));
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = item.text;
    label.append(box, text);
    const meta = [item.owner, item.due].filter(Boolean).join(" · ");
    if (meta) {
      const detail = document.createElement("span");
      detail.className = "meta";
      detail.textContent = meta;
      label.append(detail);
    }
    row.append(label);
    list.append(row);
  }
}

async function load() {
  try {
    const { items } = await hermesPlugin.request("items.list", {});
    showError("");
    render(items);
  } catch (error) {
    showError(`Couldn't read the action items: ${error && error.message}`);
  }
}

async function setDone(id, done) {
  try {
    await hermesPlugin.request("items.setDone", { id, done });
  } catch (error) {
    showError(`Couldn't update the item: ${error && error.message}`);
    await load();
  }
}

hermesPlugin.on("items.changed", () => void load());
void load();
