// The route table of spec §2. The sign-in screen is in the first bundle; every signed-in screen
// (the frame, the assistant and the rest) is loaded on demand, with its data fetched in parallel.
// Each route renders inside an error boundary and Suspense; "Loading..." shows while the auth check
// or a redirect runs.
import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunction } from 'react-router-dom';
import { LoadingScreen } from '../components/LoadingScreen';
import { RouteError } from '../components/RouteError';
import { requireSignedIn } from './auth-check';
import { AuthPage, authPageLoader } from './AuthPage';

/**
 * A screen loaded on demand. If its code cannot be loaded (a new deployment, a lost connection), the
 * screen renders the error instead, inside the route's error boundary: a failed `lazy()` would leave
 * the router waiting on the route forever and the page blank.
 */
const onDemand =
  (load: () => Promise<{ loader?: LoaderFunction; Component: ComponentType }>) =>
  (): Promise<{ loader?: LoaderFunction; Component: ComponentType }> =>
    load().catch((error: unknown) => ({
      Component: () => {
        throw error;
      },
    }));

const authRoute = (path: string) => ({ path, loader: authPageLoader, element: <AuthPage />, errorElement: <RouteError /> });

export const router = createBrowserRouter([
  {
    HydrateFallback: LoadingScreen,
    errorElement: <RouteError global />,
    children: [
      authRoute('/auth'),
      authRoute('/login'),
      authRoute('/register'),
      {
        id: 'signed-in',
        path: '/',
        lazy: onDemand(() => import('./SignedInLayout').then((m) => ({ loader: m.signedInLayoutLoader, Component: m.SignedInLayout }))),
        errorElement: <RouteError global />,
        shouldRevalidate: () => false,
        children: [
          {
            index: true,
            lazy: onDemand(() => import('./MainPage').then((m) => ({ loader: m.mainPageLoader, Component: m.MainPage }))),
            errorElement: <RouteError />,
            shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.search !== nextUrl.search,
          },
          { path: 'segments', lazy: onDemand(() => import('./SegmentsPage').then((m) => ({ loader: m.loader, Component: m.SegmentsPage }))), errorElement: <RouteError /> },
          { path: 'smart-segments', lazy: onDemand(() => import('./SmartSegmentsPage').then((m) => ({ loader: m.loader, Component: m.SmartSegmentsPage }))), errorElement: <RouteError /> },
          { path: 'admin', lazy: onDemand(() => import('./admin/AdminPage').then((m) => ({ loader: m.loader, Component: m.AdminPage }))), errorElement: <RouteError /> },
          { path: 'profile', lazy: onDemand(() => import('./ProfilePage').then((m) => ({ loader: m.loader, Component: m.ProfilePage }))), errorElement: <RouteError /> },
          { path: '*', loader: requireSignedIn, lazy: onDemand(() => import('./NotFoundPage').then((m) => ({ Component: m.NotFoundPage }))), errorElement: <RouteError /> },
        ],
      },
    ],
  },
]);
