/**
 * Another app process on the same data home, mid idle-task run: takes the claim of one task, says
 * so, and holds it until it is killed (the test kills it with SIGKILL, as a crash would).
 */
import { IdleClaims } from "../../../../electron/host/plugins/idle/idle-claims.js";

const [dir, pluginId, task] = process.argv.slice(2) as [string, string, string];
const claim = new IdleClaims(dir, () => Date.now()).tryClaim(pluginId, task);
process.stdout.write(claim ? "CLAIMED\n" : "HELD\n");
setInterval(() => undefined, 60_000);
