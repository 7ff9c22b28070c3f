// One Toaster for the whole app (spec §9: one toast at a time, 5 s by default, F8 focuses the
// toasts); notify() shows a title and an optional body with an intent. A new toast replaces the one
// on screen at once (never queued behind it: a toast always describes the latest action). The Toaster's code is not
// part of the sign-in screen (it stays small): it loads with the first toast, or earlier when a signed-in screen
// is idle (preloadToaster), so the first action's toast never waits for a download.
import { useToastController } from '@fluentui/react-components';
import { lazy, Suspense, useCallback, useEffect, useState, type ReactElement } from 'react';

export const TOASTER_ID = 'app-toaster';

const LazyToaster = lazy(() => import('./toaster-host'));

type Dispatch = ReturnType<typeof useToastController>['dispatchToast'];
type Options = Parameters<Dispatch>[1];

/** The toast asked for before the Toaster is on the page (the latest one); shown as soon as it is. */
let waiting: { content: ReactElement; options: Options } | null = null;
let showToaster: (() => void) | null = null;
let ready = false;

export function AppToaster() {
  const { dispatchToast } = useToastController(TOASTER_ID);
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    showToaster = () => setNeeded(true);
    return () => {
      showToaster = null;
    };
  }, []);
  const onReady = useCallback(() => {
    ready = true;
    if (waiting) dispatchToast(waiting.content, waiting.options);
    waiting = null;
  }, [dispatchToast]);
  return needed ? (
    <Suspense fallback={null}>
      <LazyToaster toasterId={TOASTER_ID} onReady={onReady} />
    </Suspense>
  ) : null;
}

/** Loads and mounts the Toaster once the browser is idle (called by the signed-in frame). */
export function preloadToaster() {
  const load = () => showToaster?.();
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 500);
}

export type NotifyIntent = 'success' | 'error' | 'warning' | 'info';

export interface Notice {
  title: string;
  body?: string;
  intent?: NotifyIntent;
  /** ms; default 5000 */
  timeout?: number;
}

export function useNotify() {
  const { dispatchToast, dismissAllToasts } = useToastController(TOASTER_ID);
  return useCallback(
    ({ title, body, intent = 'info', timeout }: Notice) => {
      void import('./toaster-host').then(({ ToastContent }) => {
        const content = <ToastContent title={title} body={body} />;
        const options: Options = { intent, timeout, politeness: intent === 'error' ? 'assertive' : 'polite' };
        if (ready) {
          dismissAllToasts();
          dispatchToast(content, options);
        } else {
          waiting = { content, options };
          showToaster?.();
        }
      });
    },
    [dispatchToast, dismissAllToasts],
  );
}
