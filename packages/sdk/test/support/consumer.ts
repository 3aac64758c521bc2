// A throwaway consumer project with the BUILT @svc/sdk (and the type packages the examples use) linked
// into its node_modules, as an application that installed it would see it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const packageDir = resolve(__dirname, '..', '..');
const tsc = require.resolve('typescript/bin/tsc');

export function consumer(type: 'module' | 'commonjs', files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), `sdk-${type}-`));
  mkdirSync(join(dir, 'node_modules/@svc'), { recursive: true });
  symlinkSync(packageDir, join(dir, 'node_modules/@svc/sdk'), 'dir');
  for (const name of ['@types', 'express', 'fastify']) {
    symlinkSync(join(packageDir, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        types: ['node'],
        skipLibCheck: true,
      },
      files: Object.keys(files),
    }),
  );
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  return dir;
}

/** Runs tsc on the project; answers its output (empty when it type-checks), never throws. */
export function typeCheck(dir: string, extra: string[] = []): string {
  try {
    return execFileSync(process.execPath, [tsc, '-p', dir, ...extra], { encoding: 'utf8' });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}` || String(error);
  }
}
