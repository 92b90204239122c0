// The command buttons an incident about an ASA's configuration offers (beyond Acknowledge and Mute, which
// every incident has). Each is an existing operation offered as a button (`offeredAsButton` in
// src/catalogue/), run as the person who clicks, with that person's roles, approvals and audit. The device
// is named by its UUID: every device command takes one, and a name may match several devices.
import type { AlertAction } from '../vocabulary.js';

/** The pending commands on the device (`changes`). */
export const showChanges = (uid: string): AlertAction => ({
  label: 'Show the pending commands',
  command: `changes ${uid}`,
});

/** SCC's change log of the device, with its diffs (`changelog`). */
export const showChangelog = (uid: string): AlertAction => ({
  label: 'Show the change-log diff',
  command: `changelog ${uid}`,
});

/** Deploy what is staged (four-eyes, as every deploy). */
export const deployStaged = (uid: string): AlertAction => ({
  label: 'Deploy…',
  command: `deploy ${uid}`,
  style: 'primary',
});

/** Throw away what is staged: SCC reads the device's configuration again (four-eyes, as every discard). */
export const discardStaged = (uid: string): AlertAction => ({
  label: 'Discard…',
  command: `discard ${uid}`,
  style: 'danger',
});

/**
 * A conflict's way out that keeps what was done on the device: the same `discard`, which reads the
 * device's configuration into SCC and drops what is staged there.
 */
export const acceptDeviceConfiguration = (uid: string): AlertAction => ({
  label: 'Accept the device’s configuration…',
  command: `discard ${uid}`,
  style: 'danger',
});

/** Ask SCC to re-establish its connection to the ASA (`devices reconnect`, governed). */
export const reconnectDevice = (uid: string): AlertAction => ({
  label: 'Reconnect…',
  command: `devices reconnect ${uid}`,
  style: 'primary',
});

/**
 * Accept the new certificate the ASA presents (`devices accept-certificate`, governed). Its card says that
 * SCC's API does not show the certificate, and where to check its fingerprint before approving.
 */
export const acceptNewCertificate = (uid: string): AlertAction => ({
  label: 'Accept the new certificate…',
  command: `devices accept-certificate ${uid}`,
  style: 'danger',
});
