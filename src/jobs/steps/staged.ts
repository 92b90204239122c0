// A change staged on an ASA, followed only to remind: the first step starts the wait (the schedule's
// first delay is the reminder time), the second reads the device once. Still NOT_SYNCED: the thread is
// reminded, once, that the change is not on the device. Deployed (or discarded) in the meantime: nothing
// is said. The wait lives in the queue, so it survives restarts.
import { escapeAll } from '../../render/mrkdwn.js';
import { end, type Step, unlessGone } from './step.js';

export const stepStaged: Step<'staged'> = async (ctx, request, state) => {
  if (state.step === 0) return { kind: 'continue', state: { ...state, lastStatus: 'waiting' } };
  const device = await unlessGone(
    async () => (await ctx.client.call('getDevice', { path: { deviceUid: request.deviceUid } })).data,
  );
  if (device?.configState !== 'NOT_SYNCED')
    return end({ status: 'succeeded', text: 'deployed.', quiet: true });
  const name = escapeAll(request.deviceName);
  const minutes = Math.round((ctx.now - state.startedAt) / 60_000);
  return end({
    status: 'succeeded',
    text:
      `still only staged: ${name} has not been deployed for ${minutes} minute${minutes === 1 ? '' : 's'}, so traffic ` +
      `is unchanged. \`/fw changes ${name}\` shows what a deploy would run; \`/fw deploy ${name}\` asks to run it.`,
  });
};
