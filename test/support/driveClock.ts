// Moving the simulator's manual clock while something waits on simulated time (a transaction, a deploy,
// a tracker's next poll), so a test never sleeps for the time SCC would take.

/**
 * Awaits `work` while moving `clock` forward `stepMs` at a time, each step after `pause()` (by default
 * `pauseMs` of real time; the tracking harness pauses until the workers' next SCC call instead). Stops
 * stepping once `work` settles or after `maxSteps`, and returns `work`'s own outcome, rejection included.
 */
export async function driveClock<T>(
  clock: { advance(ms: number): void },
  work: Promise<T>,
  {
    stepMs = 2_000,
    maxSteps = 400,
    pauseMs = 25,
    pause = () => new Promise<void>((resolve) => setTimeout(resolve, pauseMs)),
  }: { stepMs?: number; maxSteps?: number; pauseMs?: number; pause?: () => Promise<unknown> } = {},
): Promise<T> {
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  // Awaited below; until then its rejection is not unhandled.
  const quiet = watched.catch(() => undefined);
  for (let step = 0; step < maxSteps && !settled; step += 1) {
    clock.advance(stepMs);
    await Promise.race([quiet, pause()]);
  }
  return watched;
}
