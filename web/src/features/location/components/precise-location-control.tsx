import { useAppDispatch, useAppSelector, useAppStore } from '@/app/hooks';
import { choosePrecise, sharePreciseLocation } from '../use-geolocation';

/**
 * Where a person chooses to share their precise (GPS) position: settings (`variant="settings"`)
 * and the follower map's prompt (`variant="prompt"`, shown only until they choose).
 */
export function PreciseLocationControl({ variant }: { variant: 'settings' | 'prompt' }) {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const choice = useAppSelector((state) => state.location.preciseChoice);
  const share = () => sharePreciseLocation(dispatch, () => store.getState());

  if (variant === 'prompt') {
    if (choice !== null) return null;
    return (
      <div className="notice--info precise-prompt" role="region" aria-label="Share your precise location">
        <p>
          Your place on maps comes from your internet address (city level). Share your precise location to be placed exactly; your browser will ask
          for permission.
        </p>
        <div className="form-actions form-actions--start">
          <button type="button" className="button button--small" onClick={share}>
            Share precise location
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => choosePrecise(dispatch, 'declined')}>
            Not now
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="precise-settings">
      <p data-testid="precise-status">
        {choice === 'shared'
          ? 'Your precise location is shared: maps place you where your browser says you are.'
          : 'Your precise location is not shared: maps place you by your internet address (city level).'}
      </p>
      {choice === 'shared' ? (
        <button type="button" className="button button--ghost button--small" onClick={() => choosePrecise(dispatch, 'declined')}>
          Stop sharing precise location
        </button>
      ) : (
        <button type="button" className="button button--small" onClick={share}>
          Share precise location
        </button>
      )}
    </div>
  );
}
