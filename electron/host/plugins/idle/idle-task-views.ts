/**
 * A plugin's idle tasks as `plugins.list` shows them (docs/contract.md §9.4, §11): the tasks its running
 * worker registered, with their schedule, what each last did and how many runs it started today
 * (local day of `now`); for a plugin that is not running,
 * what its data folder remembers of them (`idle-tasks.json`), without a schedule.
 */
import type { PluginIdleTaskView } from "../../rpc/methods/plugins.js";
import type { IdleTaskScheduler } from "./idle-scheduler.js";
import { localDayKey } from "../budgets/plugin-budget.js";
import { IdleTaskStatusFile, runsOn, type IdleTaskRecord } from "./idle-task-status.js";

export function idleTaskViews(
  scheduler: Pick<IdleTaskScheduler, "list">,
  home: string,
  pluginId: string,
  now: number,
): PluginIdleTaskView[] {
  const today = localDayKey(now);
  const fromRecord = (record: IdleTaskRecord | null) => ({
    lastRun: record?.last_run ?? null,
    lastStatus: record?.last_status ?? null,
    lastError: record?.last_error ?? null,
    runsToday: runsOn(record, today),
  });
  const registered = scheduler.list(pluginId);
  if (registered.length > 0) {
    return registered
      .map((task) => ({
        name: task.name,
        intervalHours: task.options.intervalHours,
        minIdleHours: task.options.minIdleHours,
        running: task.running,
        ...fromRecord(task.record),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
  return Object.entries(new IdleTaskStatusFile(home, pluginId).readAll())
    .map(([name, record]) => ({
      name,
      intervalHours: null,
      minIdleHours: null,
      running: false,
      ...fromRecord(record),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
