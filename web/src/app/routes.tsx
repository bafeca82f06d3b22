import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { RequireAuth } from '@/features/auth';
import { AppRoot } from './app-root';
import { lazyPage } from './lazy-page';
import { RouteError } from './routes/route-error';
import { BareLayout, ShellLayout } from './shell/shell-layout';

const HomePage = lazyPage(() => import('@/features/posts/pages/home-page'));
const PostPage = lazyPage(() => import('./routes/post-page'));
// The editor (Editor.js and its tools) loads only on these three routes.
const CreatePostPage = lazyPage(() => import('@/features/editor/pages/create-post-page'));
const EditPostPage = lazyPage(() => import('@/features/editor/pages/edit-post-page'));
const DeletePostPage = lazyPage(() => import('@/features/editor/pages/delete-post-page'));
const CategoryPage = lazyPage(() => import('@/features/posts/pages/category-page'));
const TagPage = lazyPage(() => import('@/features/posts/pages/tag-page'));
const BookmarkPage = lazyPage(() => import('@/features/engagement/pages/bookmark-page'));
const SearchPage = lazyPage(() => import('@/features/search/pages/search-page'));
const AdminPage = lazyPage(() => import('@/features/admin/pages/admin-page'));
const AcknowledgePage = lazyPage(() => import('@/features/admin/pages/acknowledge-page'));
const SelectCategoryPage = lazyPage(() => import('@/features/categories/pages/select-category-page'));
const AboutPage = lazyPage(() => import('@/features/info/pages/about-page'));
const ContactPage = lazyPage(() => import('@/features/info/pages/contact-page'));
const PrivacyPage = lazyPage(() => import('@/features/info/pages/privacy-page'));
const TermsPage = lazyPage(() => import('@/features/info/pages/terms-page'));
const ProfilePage = lazyPage(() => import('@/features/users/pages/profile-page'));
const SettingsPage = lazyPage(() => import('./routes/settings-page'));
const AuthorProfilePage = lazyPage(() => import('./routes/author-profile-page'));
const PlansPage = lazyPage(() => import('@/features/subscriptions/pages/plans-page'));
const MySubscriptionsPage = lazyPage(() => import('@/features/subscriptions/pages/my-subscriptions-page'));
const SeriesPage = lazyPage(() => import('@/features/series/pages/series-page'));
// The writer's series (forms, reordering) load only on their own page.
const MySeriesPage = lazyPage(() => import('@/features/series/pages/my-series-page'));
const OnlineUsersPage = lazyPage(() => import('@/features/users/pages/online-users-page'));
const MessageBoxPage = lazyPage(() => import('@/features/notifications/pages/message-box-page'));
const VerifyPage = lazyPage(() => import('@/features/auth/pages/verify-page'));
const SignupPage = lazyPage(() => import('@/features/auth/pages/signup-page'));
const LoginPage = lazyPage(() => import('@/features/auth/pages/login-page'));
const ResetPasswordPage = lazyPage(() => import('@/features/auth/pages/reset-password-page'));
const NotFoundPage = lazyPage(() => import('./routes/not-found-page'));

function page(Component: ComponentType, guard?: 'auth' | 'admin') {
  if (!guard) return <Component />;
  return (
    <RequireAuth admin={guard === 'admin'}>
      <Component />
    </RequireAuth>
  );
}

/** React Router v7 behaviours, switched on now so the upgrade changes nothing. */
export const ROUTER_FUTURE = {
  v7_relativeSplatPath: true,
  v7_fetcherPersist: true,
  v7_normalizeFormMethod: true,
  v7_partialHydration: true,
  v7_skipActionErrorRevalidation: true,
} as const;

/** Every route of the spec (seed 000 §2). */
export const routes: RouteObject[] = [
  {
    element: <AppRoot />,
    errorElement: <RouteError />,
    children: [
      {
        element: <ShellLayout />,
        children: [
          { index: true, element: page(HomePage) },
          { path: 'createPost', element: page(CreatePostPage, 'auth') },
          { path: 'edit-post/:slug', element: page(EditPostPage, 'auth') },
          { path: 'delete-post/:id', element: page(DeletePostPage, 'auth') },
          { path: 'category/:category', element: page(CategoryPage) },
          { path: 'post/:slug', element: page(PostPage) },
          { path: 'search', element: page(SearchPage) },
          { path: 'admin', element: page(AdminPage, 'admin') },
          { path: 'about', element: page(AboutPage) },
          { path: 'contact', element: page(ContactPage) },
          { path: 'privacy', element: page(PrivacyPage) },
          { path: 'terms', element: page(TermsPage) },
          { path: 'user', element: page(ProfilePage, 'auth') },
          { path: 'user-setting', element: page(SettingsPage, 'auth') },
          { path: 'author-profile/:id', element: page(AuthorProfilePage) },
          { path: 'plans/:id', element: page(PlansPage) },
          { path: 'bookmark', element: page(BookmarkPage, 'auth') },
          { path: 'my-subscriptions', element: page(MySubscriptionsPage, 'auth') },
          { path: 'series/:slug', element: page(SeriesPage) },
          { path: 'my-series', element: page(MySeriesPage, 'auth') },
          { path: 'acknowledge/:reportId', element: page(AcknowledgePage, 'auth') },
          { path: 'message-box', element: page(MessageBoxPage, 'auth') },
          { path: 'users', element: page(OnlineUsersPage) },
          { path: 'verify', element: page(VerifyPage, 'auth') },
          { path: 'tag/:tag', element: page(TagPage) },
        ],
      },
      {
        element: <BareLayout />,
        children: [
          { path: 'signup', element: page(SignupPage) },
          { path: 'login', element: page(LoginPage) },
          { path: 'select-category', element: page(SelectCategoryPage, 'auth') },
          { path: 'reset-password', element: page(ResetPasswordPage) },
          { path: '*', element: page(NotFoundPage) },
        ],
      },
    ],
  },
];
