// `device_output:` of the FWBOT_PROFILES file: what fwbot shows of what devices answer (serial numbers in
// show answers, masked or shown). Its schema, settings, default, row of the configuration reference, and the
// settings it yields.
import { z } from 'zod';
import { closedObject, type ProfilesFileKey } from './schemaParts.js';

/** What fwbot shows of devices' answers (the file's `device_output`). */
export interface DeviceOutputSettings {
  /**
   * Serial numbers in show answers (`show version`, `show failover`): masked, or shown as the device
   * printed them. An activation key is masked either way.
   */
  readonly serialNumbers: 'masked' | 'shown';
}

export const defaultDeviceOutput: DeviceOutputSettings = Object.freeze({ serialNumbers: 'masked' });

/** `device_output`: what fwbot shows of what devices answer. */
export const DeviceOutputSchema = closedObject({
  serial_numbers: z.enum(['masked', 'shown'], { error: 'must be masked or shown' }).optional(),
});

export const deviceOutputKeys: readonly ProfilesFileKey[] = [
  {
    key: 'device_output.serial_numbers',
    description:
      'whether the answers of show commands (`show version`, `show failover`) keep the devices’ serial numbers (`shown`) or mask them (`masked`); an answer can be shared in the channel, and an activation key is masked either way',
    default: defaultDeviceOutput.serialNumbers,
    example: 'serial_numbers: shown',
  },
];

export function deviceOutputFrom(
  data: z.output<typeof DeviceOutputSchema> | undefined,
): DeviceOutputSettings {
  return Object.freeze({
    serialNumbers: data?.serial_numbers ?? defaultDeviceOutput.serialNumbers,
  });
}
