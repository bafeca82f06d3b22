// Settings → Import: a writer's archive from WordPress, Medium, Substack, Ghost, a Pressroom
// export or a feed (the import routes through lib/http.ts with their generated wire types).
export { ImportSection } from './components/import-section';
