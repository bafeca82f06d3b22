import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { GenericErrorPanel } from '@/components/error-panel';

/** The router's error element: the generic 'Something went wrong!' panel. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? new Error(error.statusText || String(error.status)) : error;
  return (
    <main className="page">
      <GenericErrorPanel error={detail} />
    </main>
  );
}
