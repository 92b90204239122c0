// An ASA with undeployed changes (its configuration in SCC NOT_SYNCED: something staged, not deployed) runs no
// command line: SCC refuses executeCliCommand on it, so packet-tracer and the show commands too (Cisco's own
// test kit: "the API rejects script pushes against a NOT_SYNCED device with INVALID_INPUT"). Every operation
// that runs the command line says it in the same one sentence: the device, that it has undeployed changes,
// and what to do. It is decided before anything is sent, from the device as just read; SCC's own refusal
// (a change staged in between) is said the same way, with SCC's words after it.
import { UserError } from '../model/errors.js';
import { code } from '../render/format.js';
import { untrusted } from '../render/untrusted.js';
import { SccApiError } from '../scc/errors.js';

/** The sentence: the device, its undeployed changes, and what to do about them. */
export function undeployedSentence(name: string): string {
  return `${untrusted(name)} has undeployed changes (its configuration in SCC is NOT_SYNCED), and SCC runs no command line on it until they are deployed or discarded: ${code(`/fw changes ${name}`)} shows them; deploy them with ${code(`/fw deploy ${name}`)} or discard them with ${code(`/fw discard ${name}`)}, then try again.`;
}

/** Refuses, before anything is sent, a device that SCC would refuse a command line for. */
export function refuseUndeployed(found: { name: string; device: { configState?: string | null } }): void {
  if (found.device.configState === 'NOT_SYNCED') throw new UserError(undeployedSentence(found.name));
}

/**
 * SCC's refusal of a command line because the device is NOT_SYNCED, as the sentence (with SCC's errorCode
 * and errorMsg); any other error as it is.
 */
export function undeployedRefusal(error: unknown, device: { uid: string; name: string }): unknown {
  if (!(error instanceof SccApiError) || error.status !== 400) return error;
  const details = error.details as Record<string, { configState?: unknown } | undefined> | undefined;
  // SCC names each refused device in details; without details, its message is all there is to go by.
  const named = details?.[device.uid]?.configState === 'NOT_SYNCED';
  const unnamed = details === undefined || details === null || Object.keys(details).length === 0;
  if (!named && !(unnamed && error.errorMsg?.includes('NOT_SYNCED'))) return error;
  const said = [error.errorCode, error.errorMsg].filter(Boolean).join(': ');
  return new UserError(`${undeployedSentence(device.name)} (SCC answered ${error.status} ${said}.)`, [], {
    cause: error,
  });
}
