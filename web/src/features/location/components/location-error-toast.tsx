import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { reloadPage } from '@/lib/browser';
import { geoErrorDismissed } from '../location-slice';
import { forgetGeolocationRequest } from '../use-geolocation';

/** The location error toast; dismissing it reloads the page, and the reloaded page asks the browser again. */
export function LocationErrorToast() {
  const dispatch = useAppDispatch();
  const message = useAppSelector((state) => state.location.geoError);
  if (!message) return null;
  return (
    <div className="toast toast--error location-toast" role="alert">
      <span>Location error: {message}</span>
      <button
        type="button"
        className="button button--small"
        onClick={() => {
          dispatch(geoErrorDismissed());
          forgetGeolocationRequest();
          reloadPage();
        }}
      >
        Dismiss
      </button>
    </div>
  );
}
