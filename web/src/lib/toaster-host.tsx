// The Toaster and the content of a toast (loaded after the first screen; see toasts.tsx).
import { Toast, ToastBody, ToastTitle, Toaster } from '@fluentui/react-components';
import { useEffect } from 'react';

export default function ToasterHost({ toasterId, onReady }: { toasterId: string; onReady: () => void }) {
  // The Toaster listens from its own effect, which runs before this one: it is ready here.
  useEffect(() => {
    onReady();
  }, [onReady]);
  // Tab and Shift+Tab leave a toast (focused with F8, or left there by a closing dialog) for the screen's main
  // area: a toast never traps focus (Fluent's toast keeps Tab inside it). Captured before Fluent's handlers.
  useEffect(() => {
    const leave = (e: KeyboardEvent) => {
      if (e.key !== 'Tab' || !(document.activeElement instanceof HTMLElement) || !document.activeElement.closest('[data-toaster-position]')) return;
      const main = document.querySelector<HTMLElement>('main');
      if (!main) return;
      e.preventDefault();
      e.stopPropagation();
      main.focus();
    };
    document.addEventListener('keydown', leave, true);
    return () => document.removeEventListener('keydown', leave, true);
  }, []);
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
