// Puts the API viewer into dist/api-docs: the page and its start-up script from api-docs/, and
// Swagger UI's bundle and stylesheet from the installed swagger-ui-dist package (no CDN).
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(web, 'dist', 'api-docs');
const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
mkdirSync(out, { recursive: true });
for (const file of ['index.html', 'init.js']) copyFileSync(join(web, 'api-docs', file), join(out, file));
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) copyFileSync(join(dist, file), join(out, file));
