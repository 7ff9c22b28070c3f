// The Toaster and the content of a toast (loaded after the first screen; see toasts.tsx).
import { Toast, ToastBody, ToastTitle, Toaster } from '@fluentui/react-components';

export default function ToasterHost({ toasterId }: { toasterId: string }) {
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
