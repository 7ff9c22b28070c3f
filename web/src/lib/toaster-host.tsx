// The Toaster and the content of a toast (loaded after the first screen; see toasts.tsx).
import { Toast, ToastBody, ToastTitle, Toaster } from '@fluentui/react-components';
import { useEffect } from 'react';

export default function ToasterHost({ toasterId, onReady }: { toasterId: string; onReady: () => void }) {
  // The Toaster listens from its own effect, which runs before this one: it is ready here.
  useEffect(() => {
    onReady();
  }, [onReady]);
  return (
    <Toaster
      toasterId={toasterId}
      limit={1}
      timeout={5000}
      pauseOnHover
      pauseOnWindowBlur
      position="bottom-end"
      shortcuts={{ focus: (e: KeyboardEvent) => e.key === 'F8' }}
    />
  );
}

export function ToastContent({ title, body }: { title: string; body?: string }) {
  return (
    <Toast>
      <ToastTitle>{title}</ToastTitle>
      {body ? <ToastBody>{body}</ToastBody> : null}
    </Toast>
  );
}
