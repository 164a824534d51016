/**
 * A plugin's idle tasks (docs/contract.md §9.4) on Settings → Plugins: each task's schedule, whether it is
 * running now, when it last ran with what outcome (`last_run` / `last_status`, with the reason
 * of a failed run), and how many runs it started today (a seconds interval shows up here). Shown for a plugin that is not running too, from what its data remembers.
 */
import type { PluginIdleTaskView, PluginView } from "../../../../electron/host/rpc/methods/plugins.js";

const statusLabel: Readonly<Record<NonNullable<PluginIdleTaskView["lastStatus"]>, string>> = {
  ok: "OK",
  error: "Failed",
  timeout: "Timed out",
};

/** An interval in words: hours, minutes, or seconds (any positive interval is allowed). */
const hours = (h: number) =>
  h >= 1
    ? `${Number(h.toFixed(2))} h`
    : h * 60 >= 1
      ? `${Number((h * 60).toFixed(1))} min`
      : `${Number((h * 3600).toPrecision(2))} s`;

const runsToday = (n: number) => (n === 1 ? "1 run today" : `${n} runs today`);

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

function schedule(task: PluginIdleTaskView): string {
  if (task.intervalHours === null || task.minIdleHours === null)
    return "Not scheduled while the plugin is off";
  return `Every ${hours(task.intervalHours)}, after ${hours(task.minIdleHours)} idle`;
}

export function PluginIdleTasks({ plugin }: { plugin: PluginView }) {
  const tasks = plugin.idleTasks ?? [];
  if (tasks.length === 0) return null;
  return (
    <div className="plugin-section">
      <h3 className="plugin-section-title">Idle tasks</h3>
      <ul className="plugin-idle-tasks" aria-label={`Idle tasks of ${plugin.name}`}>
        {tasks.map((task) => (
          <li key={task.name} className="plugin-idle-task" data-idle-task={task.name}>
            <div className="plugin-capability-text">
              <code className="plugin-command-usage">{task.name}</code>
              <span className="plugin-command-description">
                {schedule(task)} · <span className="plugin-idle-task-count">{runsToday(task.runsToday)}</span>
              </span>
            </div>
            <span className="plugin-idle-task-run">
              {task.running ? (
                <span className="capability-state capability-state-pending">Running now</span>
              ) : task.lastRun === null ? (
                <span className="plugin-section-empty">Not run yet</span>
              ) : (
                <>
                  <span className="plugin-command-description">
                    Last run <time dateTime={task.lastRun}>{when(task.lastRun)}</time>
                  </span>{" "}
                  <span
                    className={`capability-state capability-state-${task.lastStatus === "ok" ? "granted" : "off"}`}
                  >
                    {task.lastStatus ? statusLabel[task.lastStatus] : "Unknown"}
                  </span>
                  {task.lastError ? <span className="plugin-idle-task-error">{task.lastError}</span> : null}
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
