// OAuth scopes, written MODULE:PERMISSION (docs/api-guide.md#oauth-client-credentials, docs/decisions.md,
// "Wire: request signatures"). READWRITE grants READ and WRITE.

export const SCOPE_MODULES = ['BASE_MODULE', 'MANAGE_USERS'] as const;
export const SCOPE_PERMISSIONS = ['READ', 'WRITE', 'READWRITE'] as const;

export type ScopeModule = (typeof SCOPE_MODULES)[number];
export type ScopePermission = (typeof SCOPE_PERMISSIONS)[number];
export type Scope = `${ScopeModule}:${ScopePermission}`;

/** Every scope there is, e.g. for an operator's client that may do everything. */
export const ALL_SCOPES: readonly Scope[] = SCOPE_MODULES.flatMap((module) =>
  SCOPE_PERMISSIONS.map((permission): Scope => `${module}:${permission}`),
);

export class ScopeError extends Error {
  override readonly name = 'ScopeError';

  constructor(readonly scope: string) {
    super(
      `Unknown scope ${JSON.stringify(scope)}: a scope is MODULE:PERMISSION with MODULE one of ` +
        `${SCOPE_MODULES.join(', ')} and PERMISSION one of ${SCOPE_PERMISSIONS.join(', ')}`,
    );
  }
}

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/**
 * Parses a space-separated scope list (the OAuth `scope` parameter). Repeated spaces are allowed,
 * duplicates are dropped, order is kept; an unknown scope throws {@link ScopeError}.
 */
export function parseScopes(text: string): Scope[] {
  const scopes = new Set<Scope>();
  for (const item of text.split(' ')) {
    if (item === '') continue;
    if (!isScope(item)) throw new ScopeError(item);
    scopes.add(item);
  }
  return [...scopes];
}

export function formatScopes(scopes: Iterable<Scope>): string {
  return [...scopes].join(' ');
}

/** Whether the `granted` scopes allow what `required` asks for: READWRITE stands for READ and WRITE. */
export function grantsScope(granted: Iterable<Scope>, required: Scope): boolean {
  const [module, permission] = splitScope(required);
  let read = false;
  let write = false;
  for (const scope of granted) {
    const [grantedModule, grantedPermission] = splitScope(scope);
    if (grantedModule !== module) continue;
    read ||= grantedPermission !== 'WRITE';
    write ||= grantedPermission !== 'READ';
  }
  if (permission === 'READ') return read;
  if (permission === 'WRITE') return write;
  return read && write;
}

/** Whether every scope of `requested` is allowed by `granted` (the token endpoint's subset rule). */
export function grantsScopes(granted: Iterable<Scope>, requested: Iterable<Scope>): boolean {
  const grantedList = [...granted];
  for (const scope of requested) {
    if (!grantsScope(grantedList, scope)) return false;
  }
  return true;
}

function splitScope(scope: Scope): [ScopeModule, ScopePermission] {
  return scope.split(':') as [ScopeModule, ScopePermission];
}
