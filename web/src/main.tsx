import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles/global.css';
import './styles/data.css';

// Rendered as a transition, the app replaces the page the server painted only once its first
// screen is ready (its page module loaded), in one step.
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
