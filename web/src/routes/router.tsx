// The route table of spec §2. The sign-in screen is in the first bundle; every signed-in screen
// (the frame, the assistant and the rest) is loaded on demand once the session is known to be
// signed in, its data fetched as soon as its code is there.
// Each route renders inside an error boundary and Suspense; "Loading..." shows while the auth check
// or a redirect runs.
import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunction } from 'react-router-dom';
import { LoadingScreen } from '../components/LoadingScreen';
import { RouteError } from '../components/RouteError';
import { requireSignedIn } from './auth-check';
import { AuthPage, authPageLoader } from './AuthPage';

/**
 * A signed-in screen, loaded on demand and only when signed in: its loader checks the session first
 * (a signed-out visitor is redirected without downloading the screen's code), then imports the
 * screen and runs the screen's own loader. The component rendered is the one the loader imported:
 * a route's element renders only after its loader has finished. If the code cannot be loaded (a
 * new deployment, a lost connection), the loader throws and the route's error boundary shows it.
 * (A route's `lazy` would not do: react-router downloads it in parallel with the loader, before
 * the redirect.)
 */
function signedInScreen(load: () => Promise<{ loader?: LoaderFunction; Component: ComponentType }>) {
  let Screen: ComponentType | undefined;
  const loader: LoaderFunction = async (args) => {
    await requireSignedIn();
    const screen = await load();
    Screen = screen.Component;
    return screen.loader ? screen.loader(args) : null;
  };
  function OnDemandScreen() {
    return Screen ? <Screen /> : null;
  }
  return { loader, Component: OnDemandScreen };
}

const authRoute = (path: string) => ({ path, loader: authPageLoader, element: <AuthPage />, errorElement: <RouteError /> });

export const router = createBrowserRouter([
  {
    HydrateFallback: LoadingScreen,
    errorElement: <RouteError global />,
    children: [
      authRoute('/auth'),
      authRoute('/login'),
      authRoute('/register'),
      // A reset link's page, whether signed in or not (its code loads only when opened).
      { path: '/reset-password', lazy: () => import('./ResetPasswordPage').then((m) => ({ Component: m.ResetPasswordPage })), errorElement: <RouteError /> },
      {
        id: 'signed-in',
        path: '/',
        ...signedInScreen(() => import('./SignedInLayout').then((m) => ({ loader: m.signedInLayoutLoader, Component: m.SignedInLayout }))),
        errorElement: <RouteError global />,
        shouldRevalidate: () => false,
        children: [
          {
            index: true,
            ...signedInScreen(() => import('./MainPage').then((m) => ({ loader: m.mainPageLoader, Component: m.MainPage }))),
            errorElement: <RouteError />,
            shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.search !== nextUrl.search,
          },
          { path: 'segments', ...signedInScreen(() => import('./SegmentsPage').then((m) => ({ loader: m.loader, Component: m.SegmentsPage }))), errorElement: <RouteError /> },
          { path: 'smart-segments', ...signedInScreen(() => import('./SmartSegmentsPage').then((m) => ({ loader: m.loader, Component: m.SmartSegmentsPage }))), errorElement: <RouteError /> },
          {
            path: 'smart-segments/:id',
            ...signedInScreen(() => import('./SmartSegmentCustomersPage').then((m) => ({ loader: m.loader, Component: m.SmartSegmentCustomersPage }))),
            errorElement: <RouteError />,
          },
          { path: 'admin', ...signedInScreen(() => import('./admin/AdminPage').then((m) => ({ loader: m.loader, Component: m.AdminPage }))), errorElement: <RouteError /> },
          { path: 'profile', ...signedInScreen(() => import('./ProfilePage').then((m) => ({ loader: m.loader, Component: m.ProfilePage }))), errorElement: <RouteError /> },
          { path: '*', ...signedInScreen(() => import('./NotFoundPage').then((m) => ({ Component: m.NotFoundPage }))), errorElement: <RouteError /> },
        ],
      },
    ],
  },
]);
