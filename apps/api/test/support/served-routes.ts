// The routes the running app serves, read from Fastify's route tree: tests that must cover every route
// enumerate them here rather than keep a list by hand.
import type { ApiFixture } from './app-fixture.js';

/** `METHOD /path` of every route Fastify serves, read from its route tree. */
export function servedRoutes(api: ApiFixture): string[] {
  const tree = api.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false });
  const path: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const [, indent = '', segment = '', methods] = match;
    path.length = indent.length / 4;
    path.push(segment);
    for (const method of methods?.split(', ') ?? []) routes.push(`${method} ${path.join('')}`);
  }
  return routes;
}
