// One Toaster for the whole app (spec §9: one toast at a time, 5 s by default, F8 focuses the
// toasts); notify() shows a title and an optional body with an intent. The toast components load
// after the first screen (toasts only follow something the user did).
import { useToastController } from '@fluentui/react-components';
import { lazy, Suspense, useCallback } from 'react';

export const TOASTER_ID = 'app-toaster';

const LazyToaster = lazy(() => import('./toaster-host'));

export function AppToaster() {
  return (
    <Suspense fallback={null}>
      <LazyToaster toasterId={TOASTER_ID} />
    </Suspense>
  );
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
  const { dispatchToast } = useToastController(TOASTER_ID);
  return useCallback(
    ({ title, body, intent = 'info', timeout }: Notice) => {
      void import('./toaster-host').then(({ ToastContent }) =>
        dispatchToast(<ToastContent title={title} body={body} />, { intent, timeout, politeness: intent === 'error' ? 'assertive' : 'polite' }),
      );
    },
    [dispatchToast],
  );
}
