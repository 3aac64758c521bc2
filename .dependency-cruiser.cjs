// The api's floors (README, "The api's floors"): an import points to its own floor or a lower one, never
// up. Checked in `npm test` (dependency-cruiser); a new upward import fails it.
const SRC = '^apps/api/src/';
const any = (...paths) => paths.map((p) => `${SRC}${p}`);

/** Nest's modules wire a feature's floors together: composition, but for the kernel's two. */
const MODULES = any('(?!(core|database/database)\\.module\\.ts$).*\\.module\\.ts$');

/** Each floor's files, lowest first. A file is on the lowest floor that names it. */
const KERNEL = any(
  'config/',
  'common/(?!(exception\\.filter|request-hooks|content-type)\\.ts$)',
  'database/',
  'auth/(decorators|principal|roles|dashboard-permissions)\\.ts$',
  'openapi/(route\\.decorators|tags|schema-parts|schemas|event-schemas|operator-schemas)\\.ts$',
  'core\\.module\\.ts$',
);
const INFRASTRUCTURE = any('(metrics|audit|health)/(?!.*\\.controller\\.tsx?$)', 'outbox/');
const COMPOSITION = any(
  ...MODULES.map((path) => path.slice(SRC.length)),
  'app\\.ts$',
  'main\\.ts$',
  'index\\.ts$',
  'demo\\.ts$',
  'cli/',
  'openapi/(openapi|path-parameters|idempotency-key)\\.ts$',
  'common/(exception\\.filter|request-hooks|content-type)\\.ts$',
);
const SURFACES = any(
  '.*\\.controller\\.tsx?$',
  'web/',
  'dashboard/(pages|views)/',
  'console/',
  '.*/nav\\.ts$',
  '.*-area\\.ts$',
);
const ACCESS = any('auth/', 'event-log/stream/', '.*\\.guard\\.ts$', '.*\\.strategy\\.ts$');

const floors = [
  ['kernel', KERNEL],
  ['infrastructure', INFRASTRUCTURE],
  ['features', null],
  ['access', ACCESS],
  ['surfaces', SURFACES],
  ['composition', COMPOSITION],
];
const named = (from, to) => floors.slice(from, to).flatMap(([, paths]) => paths ?? []);

/** Rules that forbid floor `i` to import any higher floor's file. */
function rules(i) {
  const [name, paths] = floors[i];
  const from = paths
    ? { path: paths, pathNot: [...named(0, i), ...(name === 'composition' ? [] : MODULES)] }
    : { path: SRC, pathNot: named(0, floors.length) };
  const rule = (to, what) => ({
    name: `${name}-imports-${what}`,
    comment: `a file of the ${name} floor imports one of a higher floor (${what})`,
    severity: 'error',
    from,
    to,
  });
  const higher = named(i + 1, floors.length);
  const featuresAbove = floors.findIndex(([, p]) => p === null) > i;
  return [
    rule({ path: higher, pathNot: named(0, i + 1) }, 'up'),
    ...(featuresAbove ? [rule({ path: SRC, pathNot: named(0, floors.length) }, 'a feature')] : []),
  ];
}

module.exports = {
  forbidden: floors.slice(0, -1).flatMap((_, i) => rules(i)),
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: SRC,
    exclude: { path: '\\.spec\\.tsx?$' },
    tsConfig: { fileName: 'apps/api/tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
