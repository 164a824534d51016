/**
 * A resource template's variables and its URI once they are filled (RFC 6570: `{var}` and `{+var}`
 * expansions, the forms MCP servers use; other operators fill as plain `{var}`).
 */
const expression = /\{([+#./;?&]?)([^}]+)\}/g;

/** The variable names of a template, in order, each once. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(expression)) {
    for (const name of (match[2] ?? "").split(",")) {
      const clean = name.replace(/[*]|:\d+$/g, "").trim();
      if (clean && !names.includes(clean)) names.push(clean);
    }
  }
  return names;
}

/** The template with its variables filled: `{+var}` keeps reserved characters such as `/`. */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(expression, (_whole, operator: string, names: string) =>
    names
      .split(",")
      .map((name) => {
        const value = values[name.replace(/[*]|:\d+$/g, "").trim()] ?? "";
        return operator === "+" || operator === "#" ? encodeURI(value) : encodeURIComponent(value);
      })
      .join(","),
  );
}
