/** The slash-command suggestions under the composer: a listbox the textarea drives by keyboard. */
import type { SlashCommand } from "../../stores/chat/composer-store.js";

export function SlashMenu({
  id,
  commands,
  activeIndex,
  onPick,
}: {
  id: string;
  commands: readonly SlashCommand[];
  activeIndex: number;
  onPick(command: SlashCommand): void;
}) {
  return (
    <ul id={id} role="listbox" aria-label="Commands" className="slash-menu">
      {commands.map((command, index) => (
        <li
          key={command.name}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === activeIndex}
          className="slash-option"
          // mousedown, not click: the textarea must keep focus.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(command);
          }}
        >
          <span className="slash-option-name">
            /{command.name}
            {command.argsHint ? <span className="slash-option-args"> {command.argsHint}</span> : null}
          </span>
          <span className="slash-option-description">
            {command.description}
            {command.source !== "built-in" ? (
              <span className="slash-option-source">
                {" · "}
                {"pluginId" in command.source ? command.source.pluginId : `MCP ${command.source.mcpServer}`}
              </span>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
