// Live screens refetch their query when the server announces a change. Relay's fetchQuery joins a
// request already in flight for the same query, so an announcement arriving mid-fetch would be
// answered by a read taken before the change: the last segment of a generation never showed. Here
// at most one refresh runs at a time, and any announcement during it earns exactly one more after it.

/** Wraps `run` so that calls never overlap and a call made while one runs is followed by one fresh run. */
export function trailingRefresh(run: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  const start = () => {
    running = true;
    again = false;
    void run()
      .catch(() => {}) // the next announcement or poll tries again
      .finally(() => {
        running = false;
        if (again) start();
      });
  };
  return () => {
    if (running) again = true;
    else start();
  };
}
