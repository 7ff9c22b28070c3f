// The route table of spec §2. The sign-in screen is in the first bundle; every signed-in screen
// (the frame, the assistant and the rest) is loaded on demand, with its data fetched in parallel.
// Each route renders inside an error boundary and Suspense; "Loading..." shows while the auth check
// or a redirect runs.
import { createBrowserRouter } from 'react-router-dom';
import { LoadingScreen } from '../components/LoadingScreen';
import { RouteError } from '../components/RouteError';
import { requireSignedIn } from './auth-check';
import { AuthPage, authPageLoader } from './AuthPage';

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
        lazy: () => import('./SignedInLayout').then((m) => ({ loader: m.signedInLayoutLoader, Component: m.SignedInLayout })),
        errorElement: <RouteError global />,
        shouldRevalidate: () => false,
        children: [
          {
            index: true,
            lazy: () => import('./MainPage').then((m) => ({ loader: m.mainPageLoader, Component: m.MainPage })),
            errorElement: <RouteError />,
            shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.search !== nextUrl.search,
          },
          { path: 'segments', lazy: () => import('./SegmentsPage').then((m) => ({ loader: m.loader, Component: m.SegmentsPage })), errorElement: <RouteError /> },
          { path: 'profile', lazy: () => import('./ProfilePage').then((m) => ({ loader: m.loader, Component: m.ProfilePage })), errorElement: <RouteError /> },
          { path: '*', loader: requireSignedIn, lazy: () => import('./NotFoundPage').then((m) => ({ Component: m.NotFoundPage })) },
        ],
      },
    ],
  },
]);
