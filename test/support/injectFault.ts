// Test-only: preloaded into a real fwbot entry point (`node --import tsx --import <this> src/….ts`) to make
// a fault that nothing in fwbot handles — a promise rejection nobody awaits, or an exception nobody
// catches — once the process has started. Production never loads this file; it reads its orders from
// the environment its test gives the child:
//   FWBOT_TEST_FAULT       rejection | exception
//   FWBOT_TEST_FAULT_AFTER a URL that answers once the process has started (its /healthz); without it,
//                          the fault comes as soon as the process has installed its fault handlers.
const kind = process.env.FWBOT_TEST_FAULT;
const after = process.env.FWBOT_TEST_FAULT_AFTER;

async function started(): Promise<void> {
  // The entry point installs its handlers while it starts: wait for them, so the fault meets them.
  while (
    process.listenerCount('unhandledRejection') === 0 ||
    process.listenerCount('uncaughtException') === 0
  )
    await new Promise((resolve) => setTimeout(resolve, 10));
  if (after === undefined) return;
  for (;;) {
    try {
      await fetch(after);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

if (kind === 'rejection' || kind === 'exception') {
  void started().then(() => {
    if (kind === 'rejection') {
      // A promise that rejects with no handler attached, as a library's background retry does.
      void Promise.reject(new Error('injected: a background promise rejected'));
      return;
    }
    setTimeout(() => {
      throw new Error('injected: an exception nothing caught');
    }, 0);
  });
}
