/**
 * ton-lite-client's LiteSingleEngine starts one timer per query (its timeout, 5 s by default) and
 * never clears it when the answer arrives, and schedules reconnects it may never cancel. Those
 * timers would keep Jest alive after the tests. While installed, every new timer is unref'd: it
 * still fires if the process is alive, but no longer holds it open.
 */
export function unrefTimersWhileInstalled(): () => void {
  const original = global.setTimeout;
  const unrefing = ((...args: Parameters<typeof setTimeout>) => original(...args).unref()) as typeof setTimeout;
  global.setTimeout = Object.assign(unrefing, original);
  return () => {
    global.setTimeout = original;
  };
}
