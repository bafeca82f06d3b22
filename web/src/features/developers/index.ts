// Settings → Developers: personal API keys and webhook endpoints (through the generated endpoints).
export { DevelopersSection } from './developers-section';
