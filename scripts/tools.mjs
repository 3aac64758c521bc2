// Where scripts/bootstrap.mjs installs the pinned toolchain from the npm registry (.tools/, git-ignored):
// one folder per tool and version. Also read by the scripts that run an installed tool (admin.mjs).
import { join } from 'node:path';

/** name@version's install folder, the package.json its install leaves, and the path of its binary `bin`. */
export function toolPaths(root, name, version, bin) {
  const prefix = join(root, '.tools', `${name}-${version}`);
  return {
    prefix,
    manifest: join(prefix, 'node_modules', name, 'package.json'),
    binary: join(prefix, 'node_modules', '.bin', bin),
  };
}
