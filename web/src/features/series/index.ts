// Series: a writer's posts in order. The post page's bar (from the post's own answer) is all a
// reader's first load carries; the series page and the writer's page load on demand (routes.tsx).
export { SeriesBar, SeriesEnd } from './components/series-bar';
export type { SeriesPlace } from './series-types';
