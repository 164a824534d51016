/**
 * What a person can do when a plugin's handler failed or never answered: the error names the
 * plugin, so say it is the plugin's, and where it can be restarted or turned off.
 */
export function pluginFaultAdvice(pluginId: string): string {
  return `This is an error in the plugin '${pluginId}', not in Hermes Desktop: try again, or restart or disable the plugin in Settings → Plugins.`;
}
