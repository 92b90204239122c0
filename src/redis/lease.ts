// Keeping a claim held in Redis while the work it guards runs (an approved call's execution, a run of timed
// work): its lease is renewed every third of its length, and a renewal refused (another process took the
// claim over after a lapse) is remembered, so the work stops before its point of no return.

export interface KeptLease {
  stop(): void;
  /** Whether a renewal was refused: the claim is someone else's now. */
  lost(): boolean;
}

export function keepLease(
  renew: () => Promise<boolean>,
  leaseMs: number,
  onError: (error: unknown) => void,
): KeptLease {
  let lost = false;
  const timer = setInterval(
    () => {
      renew()
        .then((held) => {
          lost ||= !held;
        })
        .catch(onError);
    },
    Math.max(250, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return { stop: () => clearInterval(timer), lost: () => lost };
}
