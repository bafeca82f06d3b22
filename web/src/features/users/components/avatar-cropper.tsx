/**
 * Choosing an avatar: a picture is read in the browser, shown in a square frame the user can zoom
 * and move (sliders, so it works from the keyboard), and drawn into a 256 × 256 canvas — the
 * square crop is sent as a data URL; the server stores it in its media store.
 */
import { useEffect, useRef, useState } from 'react';
import { IMAGE_LIMIT_TEXT, imageProblem, readAsDataUrl } from '@/lib/image-file';

/** Side of the stored avatar, in pixels. */
export const AVATAR_SIZE = 256;
const PREVIEW = 160;

export interface Crop {
  zoom: number;
  /** -1 (left/top) to 1 (right/bottom): where the square sits inside the picture's free room. */
  x: number;
  y: number;
}

/** The square of the source picture a crop takes: its left, top and side in source pixels. */
export function cropSquare(width: number, height: number, crop: Crop) {
  const side = Math.min(width, height) / Math.max(1, crop.zoom);
  const left = ((width - side) / 2) * (1 + crop.x);
  const top = ((height - side) / 2) * (1 + crop.y);
  return { left, top, side };
}

function draw(canvas: HTMLCanvasElement, image: HTMLImageElement, crop: Crop, size: number) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const { left, top, side } = cropSquare(image.naturalWidth, image.naturalHeight, crop);
  canvas.width = size;
  canvas.height = size;
  ctx.imageSmoothingQuality = 'high';
  ctx.clearRect(0, 0, size, size);
  ctx.drawImage(image, left, top, side, side, 0, 0, size, size);
}

/** The cropped square as a data URL (JPEG, or PNG when the source may be transparent). */
export function croppedDataUrl(image: HTMLImageElement, crop: Crop, type: string): string {
  const canvas = document.createElement('canvas');
  draw(canvas, image, crop, AVATAR_SIZE);
  return type === 'image/jpeg' ? canvas.toDataURL('image/jpeg', 0.9) : canvas.toDataURL('image/png');
}

export function AvatarCropper({ onCropped, busy }: { onCropped: (dataUrl: string | null) => void; busy: boolean }) {
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [type, setType] = useState('image/png');
  const [crop, setCrop] = useState<Crop>({ zoom: 1, x: 0, y: 0 });
  const [error, setError] = useState<string | null>(null);
  const preview = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (image && preview.current) draw(preview.current, image, crop, PREVIEW);
  }, [image, crop]);

  const choose = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    const problem = imageProblem(file);
    if (problem) {
      setError(problem);
      return;
    }
    try {
      const url = await readAsDataUrl(file);
      const img = new Image();
      img.onload = () => {
        setImage(img);
        setType(file.type);
        setCrop({ zoom: 1, x: 0, y: 0 });
      };
      img.onerror = () => setError('The picture could not be read.');
      img.src = url;
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The picture could not be read.');
    }
  };

  const slider = (key: keyof Crop, label: string, min: number, max: number, step: number) => (
    <div className="field field--inline">
      <label htmlFor={`crop-${key}`}>{label}</label>
      <input
        id={`crop-${key}`}
        type="range"
        min={min}
        max={max}
        step={step}
        value={crop[key]}
        onChange={(e) => setCrop({ ...crop, [key]: Number(e.target.value) })}
      />
    </div>
  );

  return (
    <div className="avatar-cropper">
      <div className="field">
        <label htmlFor="avatar-file">Choose a picture</label>
        <input id="avatar-file" type="file" accept="image/png,image/jpeg,image/gif,image/webp" onChange={(e) => void choose(e.target.files?.[0])} aria-describedby="avatar-hint" />
        <small id="avatar-hint" className="muted">
          {IMAGE_LIMIT_TEXT} It is cropped square to {AVATAR_SIZE} × {AVATAR_SIZE} pixels.
        </small>
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {image ? (
        <div className="avatar-cropper__editor">
          <canvas ref={preview} width={PREVIEW} height={PREVIEW} className="avatar-cropper__preview" role="img" aria-label="Preview of the new avatar" data-testid="avatar-preview" />
          <div className="avatar-cropper__controls">
            {slider('zoom', 'Zoom', 1, 4, 0.05)}
            {slider('x', 'Left – right', -1, 1, 0.02)}
            {slider('y', 'Up – down', -1, 1, 0.02)}
            <div className="form-actions form-actions--start">
              <button type="button" className="button button--small" disabled={busy} onClick={() => onCropped(croppedDataUrl(image, crop, type))}>
                {busy ? 'Saving...' : 'Save avatar'}
              </button>
              <button type="button" className="button button--small button--ghost" onClick={() => setImage(null)}>
                Cancel
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}
