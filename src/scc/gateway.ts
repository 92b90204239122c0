// The command gateway: requests sent straight to a registered device (e.g. an FMC REST call). A synchronous
// call waits up to 70 s for the device, so its timeout is 75 s (callPolicy.ts); with `async: true` SCC
// answers at once with a requestId to ask `result` for later.
import type { CallOptions, SccCaller } from './call.js';
import type * as Input from './generated/inputs.js';
import type * as Model from './generated/models.js';

export interface GatewayOptions extends CallOptions {
  /** Return at once with a requestId instead of waiting for the device. */
  async?: boolean;
}

export interface GatewayArea {
  /**
   * Sends commands to a device. The answer's `status` is `responded` (see `data.responseBody`), `pending`,
   * `timeout` (SCC's 70 s limit: poll `result`) or `failed`.
   */
  execute(
    deviceUid: string,
    commands: Input.Command[],
    options?: GatewayOptions,
  ): Promise<Model.CommandResponse>;
  /** The device's answer to an earlier command, by requestId. */
  result(requestId: string, options?: CallOptions): Promise<Model.CommandResponse>;
  /** The endpoint patterns the gateway accepts. */
  listCommands(options?: CallOptions): Promise<Model.CommandResponse>;
}

export function createGatewayArea({ call }: SccCaller): GatewayArea {
  return {
    execute: async (deviceUid, commands, { async, ...options } = {}) =>
      (
        await call('executeDeviceCommand', {
          body: { deviceUid, request: { commands } },
          // Only sent when wanted: the reference describes `async` as a flag to append, so its mere
          // presence may already mean "do not wait".
          query: async ? { async: true } : {},
          ...options,
        })
      ).data,
    result: async (requestId, options = {}) =>
      (await call('getDeviceCommandResponse', { path: { requestId }, ...options })).data,
    listCommands: async (options = {}) => (await call('getDeviceCommands', { ...options })).data,
  };
}
