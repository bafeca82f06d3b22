// Types of scripts/installable-app.mjs for vite.config.ts.
import type { Plugin } from 'vite';

export declare const COLORS: Record<'surface' | 'page' | 'brand' | 'border' | 'muted' | 'text', string>;
export declare const WEB_MANIFEST: Record<string, unknown>;
export declare function installableAppFiles(): { fileName: string; source: string | Uint8Array }[];
export declare function installableApp(): Plugin;
