// Providers: Fluent UI theme, the one Toaster, the Relay environment (replaced on sign-in/out so no
// cached record survives), and the router.
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { RelayEnvironmentProvider } from 'react-relay';
import { RouterProvider } from 'react-router-dom';
import { AppToaster } from './lib/toasts';
import { getEnvironment, onEnvironmentReset } from './relay/environment';
import { router } from './routes/router';

export function App() {
  const [environment, setEnvironment] = useState(getEnvironment);
  useEffect(() => {
    const off = onEnvironmentReset(() => setEnvironment(getEnvironment()));
    return () => {
      off();
    };
  }, []);
  return (
    <FluentProvider theme={webLightTheme} style={{ height: '100%' }}>
      <AppToaster />
      <RelayEnvironmentProvider environment={environment}>
        <RouterProvider router={router} />
      </RelayEnvironmentProvider>
    </FluentProvider>
  );
}
