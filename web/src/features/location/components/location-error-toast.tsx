import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { reloadPage } from '@/lib/browser';
import { geoErrorDismissed } from '../location-slice';

/**
 * The location error toast (seed 000 §2; dismissing it reloads the page). Only a person who chose
 * to share their precise position can see it, and a refusal is remembered, so the reloaded page
 * asks nothing again.
 */
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
          reloadPage();
        }}
      >
        Dismiss
      </button>
    </div>
  );
}
