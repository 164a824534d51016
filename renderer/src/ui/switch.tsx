/** An on/off switch on Radix (`role="switch"`, Space/Enter toggle); its name comes from `label`. */
import * as RadixSwitch from "@radix-ui/react-switch";

export function Switch({
  checked,
  onCheckedChange,
  label,
  disabled = false,
  busy = false,
}: {
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  label: string;
  disabled?: boolean;
  /** A change is on its way to the host; the thumb pulses instead of the switch going grey. */
  busy?: boolean;
}) {
  return (
    <RadixSwitch.Root
      className="switch"
      checked={checked}
      onCheckedChange={onCheckedChange}
      aria-label={label}
      aria-busy={busy || undefined}
      disabled={disabled}
    >
      <RadixSwitch.Thumb className="switch-thumb" />
    </RadixSwitch.Root>
  );
}
